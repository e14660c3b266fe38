import DataLoader from 'dataloader';
import type { RequestContext } from '../../context/context';
import { hydrate, tableOf } from '../../db/list-query';
import { TodoTemplateItem } from './todo-template-item.entity';

/** The most items a template holds: `TodoTemplate.items` declares it as its bound (src/graphql/cost.ts). */
export const MAX_ITEMS_PER_TEMPLATE = 100;

/**
 * The items of templates by template id, in their order: one statement per batch (a page of
 * templates asking for their items), within the account.
 */
export function itemsOfTemplate(ctx: RequestContext): DataLoader<number, TodoTemplateItem[]> {
  return ctx.loaders.memo(
    'todo-template-items',
    () =>
      new DataLoader<number, TodoTemplateItem[]>(async (ids) => {
        const { table, columns } = tableOf(ctx.em, TodoTemplateItem);
        // em.execute, not the bare connection: inside a mutation the read sees its transaction.
        const rows = await ctx.em.execute<Record<string, unknown>[]>(
          `select ${columns.join(', ')} from "${table}" where account_id = ? and todo_template_id = any(?::int[]) order by todo_template_id, position, id`,
          [ctx.viewer.accountId, `{${ids.map((id) => Math.trunc(id)).join(',')}}`],
          'all',
        );
        const byTemplate = new Map<number, TodoTemplateItem[]>();
        for (const item of hydrate(ctx.em, TodoTemplateItem, rows)) {
          const list = byTemplate.get(item.todoTemplate.id) ?? [];
          list.push(item);
          byTemplate.set(item.todoTemplate.id, list);
        }
        return ids.map((id) => (byTemplate.get(id) ?? []).slice(0, MAX_ITEMS_PER_TEMPLATE));
      }),
  );
}
