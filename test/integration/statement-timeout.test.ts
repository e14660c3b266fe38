import { Client } from 'pg';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * DATABASE_STATEMENT_TIMEOUT_MS: PostgreSQL's statement_timeout on the server's pooled connections.
 * A cancelled statement answers 503 (v3 {error}, GraphQL TIMEOUT), never a 500.
 */

const COMPANIES = '{ companies { nodes { id } } }';

/** A second session holding an exclusive lock on `table`: a statement touching it waits (deterministically) until cancelled. */
async function lockTable(table: 'companies' | 'users'): Promise<{ release(): Promise<void> }> {
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query('begin');
  await client.query(`lock table "${table}" in access exclusive mode`);
  return {
    async release() {
      await client.query('rollback');
      await client.end();
    },
  };
}

describe('statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS)', () => {
  let server: TestServer;
  let key: string;

  beforeAll(async () => {
    // Long enough that no ordinary statement reaches it on a loaded machine; the lock makes one wait past it.
    server = await startTestServer({ DATABASE_STATEMENT_TIMEOUT_MS: '1000' });
    key = (await server.createAccount()).admin.apiKey;
  }, 60_000);
  afterAll(() => server?.close());

  it('is set on the pooled connections', async () => {
    expect(await server.sql('show statement_timeout')).toEqual([{ statement_timeout: '1s' }]);
  });

  it('a statement past it answers v3 503 {error}, and GraphQL 503 with code TIMEOUT, not a 500', async () => {
    const lock = await lockTable('companies');
    try {
      const v3 = await server.v3(key).get('/companies.json');
      expect({ status: v3.status, body: v3.body }).toEqual({ status: 503, body: { error: expect.stringMatching(/took too long/) } });
      const gql = await server.graphql(key, COMPANIES);
      expect(gql.status).toBe(503);
      expect(gql.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/took too long/), extensions: { code: 'TIMEOUT' } })]);
    } finally {
      await lock.release();
    }
    // The cancelled statement left the pool usable.
    expect((await server.v3(key).get('/companies.json')).status).toBe(200);
  }, 20_000);

  it('the authentication lookup past it answers 503 too (it runs before any operation)', async () => {
    const lock = await lockTable('users');
    try {
      const v3 = await server.v3(key).get('/companies.json');
      expect({ status: v3.status, body: v3.body }).toEqual({ status: 503, body: { error: expect.stringMatching(/took too long/) } });
      const gql = await server.graphql(key, COMPANIES);
      expect(gql.status).toBe(503);
      expect(gql.body.errors).toEqual([expect.objectContaining({ extensions: { code: 'TIMEOUT' } })]);
    } finally {
      await lock.release();
    }
    expect((await server.graphql(key, COMPANIES)).status).toBe(200);
  }, 20_000);
});
