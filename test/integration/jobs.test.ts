import { ownDatabase } from '../support/own-database';
import { eventually, startSmtp } from '../support/smtp';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 13 §1–2 in one process: the worker of `npm start` (RUN_WORKER, the default) runs the jobs
 * that committed changes enqueue, and its sweep finds work whose job was lost. Several processes:
 * test/integration/multi-process.test.ts.
 */
describe('jobs: the in-process worker', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let worker: TestServer;
  let account: TestAccount;
  let rita: { id: number; apiKey: string };
  let database: Awaited<ReturnType<typeof ownDatabase>>;

  beforeAll(async () => {
    // The worker's sweep takes every due row of its database: this file's own, so that what other
    // files left pending neither delays these rows nor gets sent here.
    database = await ownDatabase('jobs');
    smtp = await startSmtp();
    worker = await startTestServer(
      {
        RUN_WORKER: 'true',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'CRM <crm@example.test>',
        JOB_POLL_INTERVAL_MS: '200',
        JOB_SWEEP_INTERVAL_MS: '1000',
        // Agenda checks a running job's lock every lockLifetime/2 on a timer it never clears: short, so
        // the test process is not held open long after the worker stopped.
        JOB_LOCK_LIFETIME_MS: '6000',
        DOCUMENT_FETCH_TIMEOUT_MS: '1000',
      },
      { databaseUrl: database.url },
    );
    account = await worker.createAccount();
    rita = await account.addUser({ firstName: 'Rita', lastName: 'Levi', email: 'rita@example.test' });
  });

  afterAll(async () => {
    await worker?.close();
    await database?.drop();
    await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
  });

  const outboxRow = async (subjectId: number) =>
    (
      await worker.sql<{ id: number; status: string; attempts: number }>(
        `select id, status, attempts from outbox_messages where subject_type = 'Person' and subject_id = ?`,
        [subjectId],
      )
    )[0];

  it('delivers the mail a committed change owes, once, through the worker', async () => {
    const person = (await worker.v3(account.admin.apiKey).post('/people.json', { person: { last_name: 'Queued', user_id: rita.id } })).body;
    const mail = await eventually(() => smtp.received.find((m) => m.mail.text?.includes('Queued')), 15_000, 'the assignment mail');
    expect(mail.rcptTo).toEqual(['rita@example.test']);
    const row = await eventually(async () => {
      const r = await outboxRow(person.id);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
    // Done means the job is gone too (removed on success; it runs under its key with `:running`), and no second mail follows.
    await eventually(
      async () =>
        Number(
          (await worker.sql(`select count(*)::int as n from agenda_jobs where data->>'key' in (?, ?)`, [`mail:${row.id}`, `mail:${row.id}:running`]))[0].n,
        ) === 0,
    );
    expect(smtp.received.filter((m) => m.mail.text?.includes('Queued'))).toHaveLength(1);
  });

  it('the sweep finds a due row whose job was lost after its commit', async () => {
    // An API process that enqueues nothing stands in for one that died between commit and enqueue.
    await worker.sql(`delete from agenda_jobs where name = 'deliver-mail'`);
    const [{ id: personId }] = await worker.sql<{ id: number }>(
      `insert into people (account_id, owner_id, last_name, created_at, updated_at) values (?, ?, 'Orphan', now(), now()) returning id`,
      [account.accountId, account.admin.id],
    );
    await worker.sql(
      `insert into outbox_messages (account_id, recipient_id, kind, subject_type, subject_id, payload, status, created_at) values (?, ?, 'person_assignment', 'Person', ?, ?, 'pending', now())`,
      [account.accountId, rita.id, personId, JSON.stringify({ byUserId: account.admin.id })],
    );
    await eventually(async () => (await outboxRow(personId))?.status === 'sent', 15_000, 'the swept row to be sent');
    expect(smtp.received.some((m) => m.mail.text?.includes('Orphan'))).toBe(true);
  });
});
