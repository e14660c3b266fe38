import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 22 §1: an admin list item's colour is kept as the client wrote it (the real v3 service
 * stored `"0"`, `"fff"`, `"C73408"`), and a number arrives as its decimal string, which may be
 * longer than `#rrggbb` (16777215 is white as a 24-bit number). Widened to 32 characters
 * (ListItem.hexColor, HEX_COLOR_MAX); every stored value still fits.
 */
export class Migration20261201000001ListItemColours extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "list_items" alter column "hex_color" type varchar(32)`);
  }

  override async down(): Promise<void> {
    // Colours longer than the old column are cut rather than failing the rollback.
    this.addSql(`alter table "list_items" alter column "hex_color" type varchar(7) using left("hex_color", 7)`);
  }
}
