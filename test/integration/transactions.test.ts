import { createContext, type RequestContext } from '../../src/context/context';
import { mutation, withinSavepoint } from '../../src/context/transaction';
import { PersonService } from '../../src/modules/people/person.service';
import type { PersonInput } from '../../src/modules/people/person.inputs';
import { recordMail } from '../../src/modules/outbox/outbox.service';
import { viewerForUser } from '../../src/modules/users/user.viewer';
import { openServerWithAccount, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Every write runs in one transaction (context/transaction.ts): a failure leaves nothing behind,
 * and work queued with ctx.afterCommit runs once after the commit, never after a rollback. The
 * contexts are built the way a job builds one: no HTTP, a viewer from a user id.
 */
describe('mutations: one transaction, after-commit tasks', () => {
  let server: TestServer;
  let account: TestAccount;
  let other: { id: number };

  beforeAll(async () => {
    ({ server, account } = await openServerWithAccount());
    other = await account.addUser();
  }, 60_000);
  afterAll(() => server.close());

  async function contextOf(userId: number, requestId = 'job-test'): Promise<RequestContext> {
    const viewer = await viewerForUser(server.orm.em.fork(), userId);
    if (!viewer) throw new Error(`no user ${userId}`);
    return createContext(server.orm, viewer, requestId);
  }

  const input = (fields: Partial<PersonInput>) => fields as PersonInput;
  const peopleNamed = (name: string) => server.sql<{ id: number }>('select id from people where account_id = ? and last_name = ?', [account.accountId, name]);
  const outboxOf = (personId: number) =>
    server.sql<{ kind: string; recipient_id: number; payload: unknown }>(
      `select kind, recipient_id, payload from outbox_messages where subject_type = 'Person' and subject_id = ?`,
      [personId],
    );

  it('builds a job context from a user id, without HTTP', async () => {
    const ctx = await contextOf(other.id);
    expect(ctx.viewer).toEqual(expect.objectContaining({ userId: other.id, accountId: account.accountId, isAdmin: false, timeZone: 'UTC', appId: null }));
    expect(await viewerForUser(server.orm.em.fork(), 2147483647)).toBeNull();
  });

  it('a mutation failing after its person and outbox row were written leaves no row, no outbox entry and runs no task', async () => {
    const ctx = await contextOf(account.admin.id);
    let ran = 0;
    let personId = 0;
    const failed = mutation(ctx, async (em) => {
      // The real service, with an assignment mail (the owner is someone else): it joins this transaction.
      const person = await new PersonService(ctx).create(input({ lastName: 'Doomed', ownerId: other.id }));
      personId = person.id;
      ctx.afterCommit(() => void ran++);
      await em.flush();
      // Both rows are really written, inside the transaction...
      expect(await em.execute(`select kind from outbox_messages where subject_type = 'Person' and subject_id = ?`, [person.id])).toEqual([
        { kind: 'person_assignment' },
      ]);
      // ...when the database rejects a later statement of the same mutation (a foreign key).
      await em.execute('update people set owner_id = ? where id = ?', [2147483647, person.id]);
    });
    await expect(failed).rejects.toThrow(/foreign key/);
    expect(personId).toBeGreaterThan(0);
    expect(await peopleNamed('Doomed')).toEqual([]);
    expect(await outboxOf(personId)).toEqual([]);
    expect(ran).toBe(0);

    // The context stays usable, and the failed work is not flushed again by the next write.
    const next = await new PersonService(ctx).create(input({ lastName: 'AfterDoomed' }));
    expect(await peopleNamed('AfterDoomed')).toEqual([{ id: next.id }]);
    expect(await peopleNamed('Doomed')).toEqual([]);
  });

  it('a service write that fails validation rolls back what it had already persisted (a company found-or-created by name)', async () => {
    const ctx = await contextOf(account.admin.id);
    const res = new PersonService(ctx).create(input({ lastName: 'Invalid', companyName: 'Rolled Back Co', ownerId: 2147483647 }));
    await expect(res).rejects.toThrow(/ownerId does not exist/);
    expect(await server.sql(`select id from companies where account_id = ? and name = 'Rolled Back Co'`, [account.accountId])).toEqual([]);
    // The same request then writing something else does not carry the company along.
    await new PersonService(ctx).create(input({ lastName: 'Valid' }));
    expect(await server.sql(`select id from companies where account_id = ? and name = 'Rolled Back Co'`, [account.accountId])).toEqual([]);
  });

  it('after-commit tasks run exactly once, after the commit, in order; nested mutations join the outer one', async () => {
    const ctx = await contextOf(account.admin.id);
    const seen: string[] = [];
    const person = await mutation(ctx, async () => {
      const created = await mutation(ctx, async () => {
        const p = await new PersonService(ctx).create(input({ lastName: 'Committed', ownerId: other.id }));
        // Read on another connection: it sees the row only once it is committed.
        ctx.afterCommit(async () => void seen.push(`first sees ${(await peopleNamed('Committed')).length} row`));
        return p;
      });
      // The inner mutation returned: nothing committed, nothing run yet.
      expect(seen).toEqual([]);
      expect(await peopleNamed('Committed')).toEqual([]);
      ctx.afterCommit(() => void seen.push('second'));
      return created;
    });
    expect(seen).toEqual(['first sees 1 row', 'second']);
    expect(await outboxOf(person.id)).toEqual([{ kind: 'person_assignment', recipient_id: other.id, payload: { byUserId: account.admin.id } }]);

    // A later mutation on the same context runs only its own tasks.
    let later = 0;
    await mutation(ctx, async () => ctx.afterCommit(() => void later++));
    expect(later).toBe(1);
    expect(seen).toHaveLength(2);
  });

  it('a failing after-commit task is logged, does not undo or fail the committed mutation, and later tasks still run', async () => {
    const ctx = await contextOf(account.admin.id, 'req-after-commit');
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let last = 0;
    try {
      const person = await mutation(ctx, async () => {
        ctx.afterCommit(() => {
          throw new Error('smtp is down');
        });
        ctx.afterCommit(() => void last++);
        return new PersonService(ctx).create(input({ lastName: 'Survivor' }));
      });
      expect(await peopleNamed('Survivor')).toEqual([{ id: person.id }]);
      expect(last).toBe(1);
      const lines = stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('after-commit task failed'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toEqual(
        expect.objectContaining({ level: 'error', requestId: 'req-after-commit', error: expect.stringContaining('smtp is down') }),
      );
    } finally {
      stderr.mockRestore();
    }
  });

  it('refuses after-commit work and outbox rows outside a mutation', async () => {
    const ctx = await contextOf(account.admin.id);
    expect(() => ctx.afterCommit(() => undefined)).toThrow(/outside a mutation/);
    expect(() => recordMail(ctx, other.id, { kind: 'person_assignment', subject: { type: 'Person', id: 1 }, payload: { byUserId: account.admin.id } })).toThrow(
      /outside a mutation/,
    );
  });

  it('over HTTP, a rejected write leaves nothing behind either', async () => {
    const key = account.admin.apiKey;
    const res = await server.v3(key).post('/people.json', { person: { last_name: 'HttpInvalid', company_name: 'Http Rolled Co', user_id: 2147483647 } });
    expect(res.status).toBe(422);
    expect(await peopleNamed('HttpInvalid')).toEqual([]);
    expect(await server.sql(`select id from companies where account_id = ? and name = 'Http Rolled Co'`, [account.accountId])).toEqual([]);
  });
  it('a savepoint inside a mutation: a failing unit leaves no row, no outbox entry and no task; the rest of the mutation commits', async () => {
    const ctx = await contextOf(account.admin.id);
    let ran = 0;
    let doomedId = 0;
    const kept = await mutation(ctx, async () => {
      const failure = withinSavepoint(ctx, async (em) => {
        // Written and flushed (the assignment mail flushes the person for its id), then the database refuses a later statement.
        const person = await new PersonService(ctx).create(input({ lastName: 'SavepointDoomed', ownerId: other.id }));
        doomedId = person.id;
        ctx.afterCommit(() => void ran++);
        await em.flush();
        await em.execute('update people set owner_id = ? where id = ?', [2147483647, person.id]);
      });
      await expect(failure).rejects.toThrow(/foreign key/);
      // The transaction goes on after the rollback to the savepoint, and nothing of the failed unit is flushed by this write.
      return withinSavepoint(ctx, () => new PersonService(ctx).create(input({ lastName: 'SavepointKept' })));
    });
    expect(doomedId).toBeGreaterThan(0);
    expect(await peopleNamed('SavepointDoomed')).toEqual([]);
    expect(await outboxOf(doomedId)).toEqual([]);
    expect(ran).toBe(0);
    expect(await peopleNamed('SavepointKept')).toEqual([{ id: kept.id }]);
  });
});
