import { createServer, type AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config/config';
import { deliverOutboxMessage, outboxMessageId, type DeliveryPolicy } from '../../src/modules/outbox/deliver';
import { mailTransportFromConfig, smtpMailTransport, type MailTransport } from '../../src/modules/outbox/mail-transport';
import { formatInZone } from '../../src/modules/outbox/render';
import { startSmtp } from '../support/smtp';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 13 §2: outbox rows written by real v3 changes, rendered and delivered over SMTP to a real
 * in-process SMTP server (smtp-server), read back with mailparser.
 */

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

interface Row {
  id: number;
  kind: string;
  recipient_id: number;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

describe('outbox mail: rendering and SMTP delivery', () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let transport: MailTransport;
  let account: TestAccount;
  /** Makes the changes: a name full of markup. */
  let actor: { id: number; apiKey: string };
  /** In New York. */
  let rita: { id: number; apiKey: string };
  /** No zone of their own: the account's (Tokyo) applies. */
  let tom: { id: number; apiKey: string };
  let seen = 0;

  const rows = (sql = '', params: unknown[] = []) =>
    server.sql<Row>(
      `select id, kind, recipient_id, status, attempts, next_attempt_at, last_error, sent_at, created_at from outbox_messages where account_id = ? ${sql} order by id`,
      [account.accountId, ...params],
    );
  /** The rows written since the last call. */
  const newRows = async () => {
    const fresh = await rows('and id > ?', [seen]);
    if (fresh.length) seen = fresh[fresh.length - 1]!.id;
    return fresh;
  };
  const deliver = (id: number, policy?: DeliveryPolicy, via: MailTransport = transport) => deliverOutboxMessage(server.orm.em.fork(), via, id, policy);
  const byMessageId = (messageId: string) => smtp.received.filter((r) => r.mail.messageId === messageId);
  /** Time passes: the row's backoff is over. */
  const due = (id: number) => server.sql(`update outbox_messages set next_attempt_at = now() - interval '1 second' where id = ?`, [id]);

  beforeAll(async () => {
    server = await startTestServer();
    smtp = await startSmtp();
    transport = smtpMailTransport(`smtp://127.0.0.1:${smtp.port}`, 'CRM Test <crm@mail.example.test>');
    account = await server.createAccount({ timeZone: 'Asia/Tokyo' });
    actor = await account.addUser({ firstName: 'Eve <script>alert(1)</script>', lastName: `O'Hara & "Sons"`, isAdmin: true });
    rita = await account.addUser({ firstName: 'Rita', lastName: 'Recipient', timeZone: 'America/New_York', email: 'rita@example.test' });
    tom = await account.addUser({ firstName: 'Tom', lastName: 'Tokyo', email: 'tom@example.test' });
    seen = (await server.sql<{ id: number }>('select coalesce(max(id), 0) as id from outbox_messages'))[0]!.id;
  }, 60_000);

  afterAll(async () => {
    transport?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('renders and delivers every kind: recipient, subject, names, time zone, escaped HTML', async () => {
    const api = server.v3(actor.apiKey);
    const person = (await api.post('/people.json', { person: { first_name: 'Grace <i>', last_name: 'Hopper & "Co"', user_id: rita.id } })).body;
    expect(person.user_id).toBe(rita.id);
    await api.put(`/people/${person.id}.json`, { person: { user_id: tom.id } });
    const company = (await api.post('/companies.json', { company: { name: 'Acme <Widgets> & Sons' } })).body;
    expect((await api.put(`/companies/${company.id}.json`, { company: { owner_id: rita.id } })).status).toBe(200);
    const admin = server.v3(account.admin.apiKey);
    const note = (
      await admin.post('/notes.json', {
        note: { title: 'Q3 <plan>', content: 'Long text', person_id: person.id, company_id: company.id, notify_user_ids: [rita.id, actor.id] },
      })
    ).body;
    const comment = (await api.post(`/notes/${note.id}/comments.json`, { comment: { comment: 'Looks <b>good</b> & done\nSecond line' } })).body;
    expect(comment.id).toEqual(expect.any(Number));

    const written = await newRows();
    expect(written.map((r) => [r.kind, r.recipient_id])).toEqual([
      ['person_assignment', rita.id],
      ['person_reassignment', tom.id],
      ['company_reassignment', rita.id],
      ['note_comment', rita.id],
    ]);
    const results = [];
    for (const row of written) results.push(await deliver(row.id));
    expect(results.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    const after = await rows(`and id in (${written.map((r) => r.id).join(',')})`);
    for (const row of after) expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null, next_attempt_at: null, sent_at: expect.any(String) });

    const mailOf = (i: number) => {
      const row = written[i]!;
      const got = byMessageId(outboxMessageId({ id: row.id, createdAt: new Date(row.created_at) }, 'mail.example.test'));
      expect(got).toHaveLength(1);
      return { ...got[0]!, createdAt: new Date(row.created_at) };
    };
    const actorText = `Eve <script>alert(1)</script> O'Hara & "Sons"`;
    const actorHtml = 'Eve &lt;script&gt;alert(1)&lt;/script&gt; O&#39;Hara &amp; &quot;Sons&quot;';

    const assigned = mailOf(0);
    expect(assigned.rcptTo).toEqual(['rita@example.test']);
    expect(assigned.mail.to).toMatchObject({ value: [{ address: 'rita@example.test', name: 'Rita Recipient' }] });
    expect(assigned.mail.from).toMatchObject({ value: [{ address: 'crm@mail.example.test', name: 'CRM Test' }] });
    expect(assigned.mail.subject).toBe(`${actorText} assigned Grace <i> Hopper & "Co" to you`);
    expect(assigned.mail.text).toContain('Hello Rita,');
    expect(assigned.mail.text).toContain(
      `${actorText} assigned the person Grace <i> Hopper & "Co" to you on ${formatInZone(assigned.createdAt, 'America/New_York')}.`,
    );
    expect(assigned.mail.text).toContain('(America/New_York)');
    expect(assigned.mail.html).toContain(
      `<strong>${actorHtml}</strong> assigned the person <strong>Grace &lt;i&gt; Hopper &amp; &quot;Co&quot;</strong> to you on`,
    );
    expect(assigned.mail.html).not.toMatch(/<script|<i>/);
    expect(assigned.mail.headers.get('auto-submitted')).toBe('auto-generated');

    const reassigned = mailOf(1);
    expect(reassigned.rcptTo).toEqual(['tom@example.test']);
    expect(reassigned.mail.subject).toBe(`${actorText} reassigned Grace <i> Hopper & "Co" to you`);
    // Tom has no zone: the account's.
    expect(reassigned.mail.text).toContain(`to you on ${formatInZone(reassigned.createdAt, 'Asia/Tokyo')}.`);
    expect(reassigned.mail.text).toContain('(Asia/Tokyo)');

    const companyMail = mailOf(2);
    expect(companyMail.rcptTo).toEqual(['rita@example.test']);
    expect(companyMail.mail.subject).toBe(`${actorText} reassigned Acme <Widgets> & Sons to you`);
    expect(companyMail.mail.text).toContain(
      `reassigned the company Acme <Widgets> & Sons to you on ${formatInZone(companyMail.createdAt, 'America/New_York')}.`,
    );
    expect(companyMail.mail.html).toContain('<strong>Acme &lt;Widgets&gt; &amp; Sons</strong>');

    const commented = mailOf(3);
    expect(commented.rcptTo).toEqual(['rita@example.test']);
    expect(commented.mail.subject).toBe(`${actorText} commented on "Q3 <plan>"`);
    expect(commented.mail.text).toContain(
      `${actorText} commented on the note Q3 <plan> about the person Grace <i> Hopper & "Co" and the company Acme <Widgets> & Sons on `,
    );
    expect(commented.mail.text).toContain('(America/New_York):');
    expect(commented.mail.text).toContain('> Looks <b>good</b> & done\n> Second line');
    expect(commented.mail.html).toContain('Looks &lt;b&gt;good&lt;/b&gt; &amp; done<br>Second line');
    expect(commented.mail.html).toContain(
      '<strong>Q3 &lt;plan&gt;</strong> about the person Grace &lt;i&gt; Hopper &amp; &quot;Co&quot; and the company Acme &lt;Widgets&gt; &amp; Sons',
    );
    expect(commented.mail.html).not.toMatch(/<b>good|<script/);

    // The author of the comment (also a notify user) is not mailed.
    expect(written.filter((r) => r.recipient_id === actor.id)).toEqual([]);
  });

  it('puts no credential in any mail: no API key, no key hash', async () => {
    expect(smtp.received.length).toBeGreaterThan(0);
    const hashes = (await server.sql<{ api_key_hash: string }>('select api_key_hash from users where account_id = ?', [account.accountId])).map(
      (u) => u.api_key_hash,
    );
    const secrets = [account.admin.apiKey, actor.apiKey, rita.apiKey, tom.apiKey, ...hashes];
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 16)).toBe(true);
    for (const { raw, mail } of smtp.received) {
      const shown = [raw, mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : '', JSON.stringify([...mail.headers])].join('\n');
      for (const secret of secrets) expect(shown).not.toContain(secret);
    }
  });

  it('a record deleted since: a short mail saying so', async () => {
    const api = server.v3(actor.apiKey);
    const person = (await api.post('/people.json', { person: { last_name: 'Ephemeral', user_id: rita.id } })).body;
    expect((await api.del(`/people/${person.id}.json`)).status).toBe(200);
    const [row] = await newRows();
    expect(row).toMatchObject({ kind: 'person_assignment', recipient_id: rita.id });
    const result = await deliver(row!.id);
    expect(result.status).toBe('sent');
    const [got] = byMessageId((result as { messageId: string }).messageId);
    expect(got!.mail.subject).toBe('A person assigned to you has been deleted');
    expect(got!.mail.text).toContain(
      `${`Eve <script>alert(1)</script> O'Hara & "Sons"`} assigned a person to you on ${formatInZone(new Date(row!.created_at), 'America/New_York')}, but it has since been deleted.`,
    );
    expect(got!.mail.text).not.toContain('Ephemeral');
  });

  it('moves pending → sent once: two concurrent deliveries of one row send one mail', async () => {
    const api = server.v3(actor.apiKey);
    const company = (await api.post('/companies.json', { company: { name: 'Concurrent Co' } })).body;
    await api.put(`/companies/${company.id}.json`, { company: { owner_id: tom.id } });
    const [row] = await newRows();
    const results = await Promise.all([deliver(row!.id), deliver(row!.id), deliver(row!.id)]);
    expect(results.map((r) => r.status).sort()).toEqual(['sent', 'skipped', 'skipped']);
    const messageId = outboxMessageId({ id: row!.id, createdAt: new Date(row!.created_at) }, 'mail.example.test');
    expect(byMessageId(messageId)).toHaveLength(1);
    // And later: a re-run job finds it sent and does nothing.
    expect(await deliver(row!.id)).toEqual({ status: 'skipped' });
    expect(byMessageId(messageId)).toHaveLength(1);
    expect((await rows('and id = ?', [row!.id]))[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('keeps the Message-ID of a row across a retry (the server refused the mail after reading it)', async () => {
    const api = server.v3(actor.apiKey);
    await api.post('/people.json', { person: { last_name: 'Retried', user_id: rita.id } });
    const [row] = await newRows();
    smtp.setMode('reject-data');
    try {
      const first = await deliver(row!.id);
      expect(first).toMatchObject({ status: 'retry', attempts: 1, error: expect.stringContaining('451') });
    } finally {
      smtp.setMode('accept');
    }
    await due(row!.id);
    const second = await deliver(row!.id);
    expect(second).toMatchObject({ status: 'sent', attempts: 2 });
    const copies = smtp.received.filter((r) => r.mail.subject?.endsWith('assigned Retried to you'));
    expect(copies).toHaveLength(2);
    expect(copies[0]!.mail.messageId).toBe(copies[1]!.mail.messageId);
    expect(copies[0]!.mail.messageId).toBe(outboxMessageId({ id: row!.id, createdAt: new Date(row!.created_at) }, 'mail.example.test'));
    expect(copies[0]!.raw).toMatch(/^Message-ID: <outbox\.\d+\.[0-9a-z]+@mail\.example\.test>\r?$/im);
    expect((await rows('and id = ?', [row!.id]))[0]).toMatchObject({ status: 'sent', attempts: 2, last_error: null, next_attempt_at: null });
  });

  it('a refused recipient: retries with backoff, then `failed` with a reason after the last attempt', async () => {
    const policy: DeliveryPolicy = { maxAttempts: 3, backoffSeconds: (attempt) => 60 * 2 ** (attempt - 1), leaseSeconds: 300 };
    const api = server.v3(actor.apiKey);
    await api.post('/people.json', { person: { last_name: 'Refused', user_id: rita.id } });
    const [row] = await newRows();
    const before = smtp.received.length;
    smtp.setMode('reject-rcpt');
    try {
      const first = await deliver(row!.id, policy);
      expect(first).toMatchObject({ status: 'retry', attempts: 1, error: expect.stringContaining('550') });
      const [stored] = await server.sql<{ status: string; wait: number; last_error: string }>(
        `select status, extract(epoch from next_attempt_at - now())::float as wait, last_error from outbox_messages where id = ?`,
        [row!.id],
      );
      expect(stored!.status).toBe('pending');
      expect(stored!.wait).toBeGreaterThan(50);
      expect(stored!.wait).toBeLessThanOrEqual(60);
      expect(stored!.last_error).toContain('Mailbox unavailable');

      // Backing off: a delivery now does nothing.
      expect(await deliver(row!.id, policy)).toEqual({ status: 'skipped' });

      await due(row!.id);
      const second = await deliver(row!.id, policy);
      expect(second).toMatchObject({ status: 'retry', attempts: 2 });
      const [{ wait }] = await server.sql<{ wait: number }>(
        `select extract(epoch from next_attempt_at - now())::float as wait from outbox_messages where id = ?`,
        [row!.id],
      );
      expect(wait).toBeGreaterThan(110);
      expect(wait).toBeLessThanOrEqual(120);

      await due(row!.id);
      const third = await deliver(row!.id, policy);
      expect(third).toMatchObject({ status: 'failed', attempts: 3, error: expect.stringContaining('550') });
    } finally {
      smtp.setMode('accept');
    }
    const [failed] = await rows('and id = ?', [row!.id]);
    expect(failed).toMatchObject({ status: 'failed', attempts: 3, next_attempt_at: null, sent_at: null });
    expect(failed!.last_error!.length).toBeLessThanOrEqual(300);
    expect(failed!.last_error).not.toMatch(/[\r\n]/);
    // Failed is final: the SMTP server accepts again, nothing is sent.
    expect(await deliver(row!.id, policy)).toEqual({ status: 'skipped' });
    expect(smtp.received.length).toBe(before);
  });

  it('an SMTP server that cannot be reached: retry, then failed, and the reason names no SMTP credential', async () => {
    const port = await closedPort();
    const unreachable = smtpMailTransport(`smtp://mailer:s3cr3t-Passw0rd@127.0.0.1:${port}`, 'crm@mail.example.test');
    try {
      const api = server.v3(actor.apiKey);
      await api.post('/people.json', { person: { last_name: 'Unreachable', user_id: rita.id } });
      const [row] = await newRows();
      const policy: DeliveryPolicy = { maxAttempts: 2, backoffSeconds: () => 30, leaseSeconds: 300 };
      const first = await deliver(row!.id, policy, unreachable);
      expect(first).toMatchObject({ status: 'retry', attempts: 1, error: expect.stringMatching(/ECONNREFUSED|ECONNECTION/) });
      await due(row!.id);
      const second = await deliver(row!.id, policy, unreachable);
      expect(second).toMatchObject({ status: 'failed', attempts: 2 });
      const [stored] = await rows('and id = ?', [row!.id]);
      expect(stored).toMatchObject({ status: 'failed', last_error: expect.stringMatching(/ECONNREFUSED|ECONNECTION/) });
      expect(stored!.last_error).not.toMatch(/s3cr3t|mailer/);
    } finally {
      unreachable.close();
    }
  });

  it('a row whose payload does not match its kind fails at once, without a retry', async () => {
    const [{ id }] = await server.sql<{ id: number }>(
      `insert into outbox_messages (account_id, recipient_id, kind, subject_type, subject_id, payload, created_at) values (?, ?, 'note_comment', 'Note', 1, '{"byUserId": 1}', now()) returning id`,
      [account.accountId, rita.id],
    );
    await newRows();
    expect(await deliver(id)).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringContaining('not of kind note_comment') });
  });

  it('without SMTP_URL there is no transport (nothing is sent); MAIL_FROM is one address', () => {
    expect(mailTransportFromConfig(loadConfig({}))).toBeNull();
    const configured = mailTransportFromConfig(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Sales CRM <crm@sales.example.com>' }));
    expect(configured).toMatchObject({ from: 'Sales CRM <crm@sales.example.com>', messageIdDomain: 'sales.example.com' });
    configured!.close();
    expect(loadConfig({}).mailFrom).toBe('CRM <crm@localhost>');
    expect(() => loadConfig({ MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' })).toThrow(/MAIL_FROM/);
    expect(() => loadConfig({ MAIL_FROM: 'not an address' })).toThrow(/MAIL_FROM/);
  });
});
