import { Issues } from '../../common/errors';
import type { RequestContext } from '../../context/context';
import { mutation, recordChangesAs } from '../../context/transaction';
import { hydrate, tableOf } from '../../db/list-query';
import { isValidId } from '../../graphql/ids';
import { withoutNul } from '../common/input';
import { canSeeRecord, findForWrite, findVisible, fromOf, scopeOf } from '../common/resource';
import { Deal } from '../deals/deal.entity';
import { DEAL_RECORDS } from '../deals/deal.visibility';
import { Note } from '../notes/note.entity';
import { User } from '../users/user.entity';
import { Conversation } from './conversation';
import type { ConversationCreateInput, ConversationUpdateInput } from './conversation.inputs';

/**
 * Conversations (v3 §2.8, §4.8): notes on a deal, read and written in their own shape. A
 * conversation is visible exactly when its deal is (DEALS' rule: owner, collaborators, admins and
 * `all` users); a note on no deal is no conversation. A missing, hidden or not-a-conversation note
 * is answered alike (NotFound), so existence does not leak.
 */
export class ConversationService {
  constructor(private readonly ctx: RequestContext) {}

  /** Notes on a deal the viewer may see, by id, in the order asked (null where none): one statement. */
  async getMany(ids: readonly number[]): Promise<Array<Conversation | null>> {
    const valid = ids.filter(isValidId);
    if (valid.length === 0) return ids.map(() => null);
    const where = scopeOf(this.ctx, DEAL_RECORDS).add('n.account_id = ?', this.ctx.viewer.accountId);
    const rows = await this.ctx.em.execute<Record<string, unknown>[]>(
      `select n.* from ${`"${tableOf(this.ctx.em, Note).table}"`} n join ${fromOf(this.ctx, DEAL_RECORDS)} on d.id = n.deal_id where n.id = any(?::int[]) and ${where.sql}`,
      [`{${valid.join(',')}}`, ...where.params],
      'all',
    );
    const found = new Map(hydrate(this.ctx.em, Note, rows).map((n) => [n.id, new Conversation(n)]));
    return ids.map((id) => found.get(id) ?? null);
  }

  async get(id: number): Promise<Conversation | null> {
    return (await this.getMany([id]))[0];
  }

  create(input: ConversationCreateInput): Promise<Conversation> {
    return mutation(this.ctx, async (em) => {
      await recordChangesAs(em, 'notes', 'conversation');
      const issues = new Issues();
      const deal = isValidId(input.dealId) ? await findVisible(this.ctx, DEAL_RECORDS, input.dealId) : null;
      if (!deal) issues.missing('dealId');
      const sentence = this.sentenceOf(input.sentence, issues);
      issues.throwIfAny();
      const note = em.create(Note, {
        account: this.ctx.viewer.accountId,
        user: em.getReference(User, this.ctx.viewer.userId),
        deal: em.getReference(Deal, deal!.id),
        content: sentence!,
      });
      await em.flush();
      return new Conversation(note);
    });
  }

  update(id: number, input: ConversationUpdateInput): Promise<Conversation> {
    return mutation(this.ctx, async (em) => {
      await recordChangesAs(em, 'notes', 'conversation');
      const note = await this.loadForWrite(id);
      const issues = new Issues();
      if (input.sentence !== undefined) {
        const sentence = this.sentenceOf(input.sentence, issues);
        issues.throwIfAny();
        note.content = sentence!;
        note.updatedAt = new Date();
        await em.flush();
      }
      return new Conversation(note);
    });
  }

  delete(id: number): Promise<number> {
    return mutation(this.ctx, async (em) => {
      await recordChangesAs(em, 'notes', 'conversation');
      em.remove(await this.loadForWrite(id));
      await em.flush();
      return id;
    });
  }

  /** The managed note, when it is a conversation the viewer may see; else NotFound. */
  private loadForWrite(id: number): Promise<Note> {
    return findForWrite(this.ctx, 'Conversation', Note, id, async (options) => {
      const note = await this.ctx.em.findOne(Note, { id, account: this.ctx.viewer.accountId, deal: { $ne: null } }, { populate: ['deal'], ...options });
      return note?.deal && (await canSeeRecord(this.ctx, DEAL_RECORDS, note.deal)) ? note : null;
    });
  }

  /** The sentence as stored (NUL removed), or a BLANK issue for null, empty or only spaces. */
  private sentenceOf(value: string | null | undefined, issues: Issues): string | null {
    const sentence = value == null ? '' : withoutNul(value);
    if (sentence.trim() === '') {
      issues.blank('sentence');
      return null;
    }
    return sentence;
  }
}
