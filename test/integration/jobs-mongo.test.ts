import { eventually, startSmtp } from '../support/smtp';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 13 §1: with `MONGODB_URL` the queue lives in MongoDB (`@agendajs/mongo-backend`, polled:
 * MongoDB has no notifications). No MongoDB runs on this project's machines, so this runs only when
 * `TEST_MONGODB_URL` names one (e.g. mongodb://127.0.0.1:27017/crm_jobs_test); it is skipped,
 * saying so, otherwise.
 */
const mongoUrl = process.env.TEST_MONGODB_URL;
const describeWithMongo = mongoUrl ? describe : describe.skip;
if (!mongoUrl) process.stderr.write('TEST_MONGODB_URL is not set: the MongoDB job store test is skipped.\n');

describeWithMongo('jobs on MongoDB', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let server: TestServer;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer({
      MONGODB_URL: mongoUrl!,
      RUN_WORKER: 'true',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      JOB_POLL_INTERVAL_MS: '200',
      JOB_SWEEP_INTERVAL_MS: '1000',
      JOB_LOCK_LIFETIME_MS: '6000',
      DOCUMENT_FETCH_TIMEOUT_MS: '1000',
    });
  });

  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
  });

  it('delivers a committed change’s mail through a job stored in MongoDB', async () => {
    const account = await server.createAccount();
    const rita = await account.addUser({ firstName: 'Rita', lastName: 'Mongo', email: 'rita.mongo@example.test' });
    await server.v3(account.admin.apiKey).post('/people.json', { person: { last_name: 'Stored in Mongo', user_id: rita.id } });
    const mail = await eventually(() => smtp.received.find((m) => m.mail.text?.includes('Stored in Mongo')), 20_000, 'the mail');
    expect(mail.rcptTo).toEqual(['rita.mongo@example.test']);
    // Nothing of the queue went to PostgreSQL.
    expect((await server.sql<{ n: number }>(`select count(*)::int as n from agenda_jobs where data->>'key' like 'mail:%'`))[0].n).toBe(0);
  }, 40_000);
});
