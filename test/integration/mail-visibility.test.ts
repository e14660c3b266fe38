import { Visibility } from '../../src/context/viewer';
import { toGlobalId } from '../../src/graphql/node';
import { deliverOutboxMessage, type DeliveryResult } from '../../src/modules/outbox/deliver';
import { smtpMailTransport, type MailTransport } from '../../src/modules/outbox/mail-transport';
import { listOutbox } from '../../src/modules/outbox/outbox.service';
import { startSmtp } from '../support/smtp';
import { startTestServer, type TestAccount, type TestServer } from '../support/test-server';

/**
 * Issue 21 (cause 2): every mail is rendered in its recipient's visibility, as the API would answer
 * them, when it is sent (or previewed), not when its row was written. A record hidden from the
 * recipient is never named (subject, text, HTML, preview); a mail about a record they may no longer
 * see is not sent at all (`failed` at once, with a reason that names nothing).
 */
describe("outbox mail in the recipient's visibility", () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let transport: MailTransport;
  let account: TestAccount;
  /** An own-visibility user: sees what she owns (and deals shared with her). */
  let olive: { id: number; apiKey: string };
  const oliveEmail = `olive-${process.pid}@visibility.test`;
  let admin: ReturnType<TestServer['v3']>;
  let seen = 0;

  /** Records of the admin's, hidden from Olive: their names must never reach her. */
  const HIDDEN = ['Zeta Secret Deal', 'Omega Hidden Co', 'Harriet Hidden'];
  let hiddenDeal: number;
  let hiddenCompany: number;
  let hiddenPerson: number;

  interface Row {
    id: number;
    kind: string;
    recipient_id: number;
    status: string;
    attempts: number;
    last_error: string | null;
  }
  /** The rows written since the last call. */
  const newRows = async () => {
    const fresh = await server.sql<Row>(
      'select id, kind, recipient_id, status, attempts, last_error from outbox_messages where account_id = ? and id > ? order by id',
      [account.accountId, seen],
    );
    if (fresh.length) seen = fresh[fresh.length - 1]!.id;
    return fresh;
  };
  const rowOf = async (id: number) =>
    (await server.sql<Row>('select id, kind, recipient_id, status, attempts, last_error from outbox_messages where id = ?', [id]))[0]!;
  const deliver = (id: number): Promise<DeliveryResult> => deliverOutboxMessage(server.orm.em.fork(), transport, id);
  /** The one mail a delivery sent, as received: subject, text and HTML together. */
  const sentMail = (result: DeliveryResult) => {
    expect(result.status).toBe('sent');
    const got = smtp.received.filter((r) => r.mail.messageId === (result as { messageId: string }).messageId);
    expect(got).toHaveLength(1);
    expect(got[0]!.rcptTo).toEqual([oliveEmail]);
    const { subject = '', text = '', html } = got[0]!.mail;
    return { subject, text, html: typeof html === 'string' ? html : '' };
  };
  /** The row's preview as an admin reads it: the recipient's mail, not the admin's view. */
  const preview = async (id: number): Promise<{ subject: string; text: string } | null> => {
    const body = (
      await server.graphql(account.admin.apiKey, 'query($id: ID!) { node(id: $id) { ... on OutboxMessage { preview { subject text } } } }', {
        id: toGlobalId('OutboxMessage', id),
      })
    ).body;
    expect(body.errors).toBeUndefined();
    return body.data.node.preview;
  };
  const namesNothingHidden = (...shown: string[]) => {
    for (const name of HIDDEN) expect(shown.join('\n')).not.toContain(name);
  };
  /** One mail owed to Olive was just written: its row. */
  const oneRowFor = async (kind: string) => {
    const rows = await newRows();
    expect(rows.map((r) => [r.kind, r.recipient_id])).toEqual([[kind, olive.id]]);
    return rows[0]!;
  };

  beforeAll(async () => {
    server = await startTestServer();
    smtp = await startSmtp();
    transport = smtpMailTransport(`smtp://127.0.0.1:${smtp.port}`, 'CRM Test <crm@mail.example.test>');
    account = await server.createAccount();
    olive = await account.addUser({ firstName: 'Olive', lastName: 'Own', email: oliveEmail, visibility: Visibility.OWN, isAdmin: false });
    admin = server.v3(account.admin.apiKey);
    hiddenDeal = (await admin.post('/deals.json', { deal: { name: 'Zeta Secret Deal' } })).body.id;
    hiddenCompany = (await admin.post('/companies.json', { company: { name: 'Omega Hidden Co' } })).body.id;
    hiddenPerson = (await admin.post('/people.json', { person: { first_name: 'Harriet', last_name: 'Hidden' } })).body.id;
    for (const id of [hiddenDeal, hiddenCompany, hiddenPerson]) expect(id).toEqual(expect.any(Number));
    seen = (await server.sql<{ id: number }>('select coalesce(max(id), 0) as id from outbox_messages'))[0]!.id;
  }, 60_000);

  afterAll(async () => {
    transport?.close();
    await new Promise<void>((resolve) => (smtp ? smtp.server.close(() => resolve()) : resolve()));
    await server?.close();
  });

  it('note_comment: a note on a hidden deal and company, seen through her person, names only the person', async () => {
    const vera = (await admin.post('/people.json', { person: { first_name: 'Vera', last_name: 'Visible', user_id: olive.id } })).body.id;
    await oneRowFor('person_assignment');
    const note = await admin.post('/notes.json', {
      note: { title: 'Plan', content: 'x', deal_id: hiddenDeal, person_id: vera, company_id: hiddenCompany, notify_user_ids: [olive.id] },
    });
    expect(note.status).toBe(200);
    expect((await admin.post(`/notes/${note.body.id}/comments.json`, { comment: { comment: 'Done' } })).status).toBe(200);
    const row = await oneRowFor('note_comment');

    const shown = await preview(row.id);
    expect(shown!.text).toContain('commented on the note Plan about the person Vera Visible on ');
    namesNothingHidden(shown!.subject, shown!.text);

    const mail = sentMail(await deliver(row.id));
    expect(mail.text).toContain('commented on the note Plan about the person Vera Visible on ');
    expect(mail.html).toContain('<strong>Plan</strong> about the person Vera Visible on ');
    namesNothingHidden(mail.subject, mail.text, mail.html);
  });

  it('note_comment: a note on her deal and a hidden person names only the deal', async () => {
    const deal = (await admin.post('/deals.json', { deal: { name: 'Delta Hers', user_id: olive.id } })).body.id;
    const note = await admin.post('/notes.json', {
      note: { title: 'Call', content: 'x', deal_id: deal, person_id: hiddenPerson, notify_user_ids: [olive.id] },
    });
    expect(note.status).toBe(200);
    await admin.post(`/notes/${note.body.id}/comments.json`, { comment: { comment: 'Called' } });
    const row = await oneRowFor('note_comment');
    const mail = sentMail(await deliver(row.id));
    expect(mail.text).toContain('commented on the note Call about the deal Delta Hers on ');
    namesNothingHidden(mail.subject, mail.text, mail.html);
  });

  it("person_assignment and person_reassignment: the person's hidden company is not named", async () => {
    const assigned = await admin.post('/people.json', { person: { first_name: 'Pia', last_name: 'Assigned', company_id: hiddenCompany, user_id: olive.id } });
    expect(assigned.body.company_id).toBe(hiddenCompany);
    const first = await oneRowFor('person_assignment');
    const reassigned = (await admin.post('/people.json', { person: { first_name: 'Ron', last_name: 'Reassigned', company_id: hiddenCompany } })).body.id;
    await admin.put(`/people/${reassigned}.json`, { person: { user_id: olive.id } });
    const second = await oneRowFor('person_reassignment');

    for (const [row, name] of [
      [first, 'Pia Assigned'],
      [second, 'Ron Reassigned'],
    ] as const) {
      const shown = await preview(row.id);
      expect(shown!.subject).toMatch(new RegExp(`assigned ${name} to you$`));
      namesNothingHidden(shown!.subject, shown!.text);
      const mail = sentMail(await deliver(row.id));
      expect(mail.text).toMatch(new RegExp(`assigned the person ${name} to you on `));
      namesNothingHidden(mail.subject, mail.text, mail.html);
    }
  });

  /** A mail about a record the recipient may no longer see: withheld, not previewed, reason naming nothing. */
  const expectWithheld = async (rowId: number, what: string, names: readonly string[]) => {
    expect(await preview(rowId)).toBeNull();
    const before = smtp.received.length;
    const result = await deliver(rowId);
    expect(result).toEqual({ status: 'failed', attempts: 1, error: `not sent: its recipient may no longer see the ${what} it is about` });
    expect(smtp.received.length).toBe(before);
    const row = await rowOf(rowId);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: result.status === 'failed' ? result.error : null });
    for (const name of names) expect(row.last_error).not.toContain(name);
    // Final: a later delivery (a re-run job, the sweep) sends nothing.
    expect(await deliver(rowId)).toEqual({ status: 'skipped' });
    // The CLI's subject line is rendered the same way: none.
    const listed = await listOutbox(server.orm.em.fork(), account.accountId, { limit: 500 });
    expect(listed.find((m) => m.id === rowId)).toMatchObject({ status: 'failed', subject: null });
  };

  it('person_reassignment: a person handed on since the row was written is not mailed about', async () => {
    const person = (await admin.post('/people.json', { person: { first_name: 'Gus', last_name: 'Gone' } })).body.id;
    await admin.put(`/people/${person}.json`, { person: { user_id: olive.id } });
    const row = await oneRowFor('person_reassignment');
    // Handed back before the mail went out: no row for the admin (she made the change), none visible to Olive.
    await admin.put(`/people/${person}.json`, { person: { user_id: account.admin.id } });
    expect(await newRows()).toEqual([]);
    await expectWithheld(row.id, 'person', ['Gus', 'Gone']);
  });

  it('company_reassignment: a company handed on since is not mailed about; one she still owns is', async () => {
    const company = (await admin.post('/companies.json', { company: { name: 'Kappa Kept' } })).body.id;
    await admin.put(`/companies/${company}.json`, { company: { owner_id: olive.id } });
    const kept = await oneRowFor('company_reassignment');
    expect(sentMail(await deliver(kept.id)).text).toContain('reassigned the company Kappa Kept to you on ');

    const lost = (await admin.post('/companies.json', { company: { name: 'Lambda Lost' } })).body.id;
    await admin.put(`/companies/${lost}.json`, { company: { owner_id: olive.id } });
    const row = await oneRowFor('company_reassignment');
    await admin.put(`/companies/${lost}.json`, { company: { owner_id: account.admin.id } });
    await expectWithheld(row.id, 'company', ['Lambda Lost']);
  });

  it('note_comment: a note she may no longer see (its person handed on) is not mailed about', async () => {
    const person = (await admin.post('/people.json', { person: { first_name: 'Nadia', last_name: 'Nolonger', user_id: olive.id } })).body.id;
    await oneRowFor('person_assignment');
    const note = (
      await admin.post('/notes.json', { note: { title: 'Private plan', content: 'x', person_id: person, deal_id: hiddenDeal, notify_user_ids: [olive.id] } })
    ).body.id;
    await admin.post(`/notes/${note}/comments.json`, { comment: { comment: 'Soon' } });
    const row = await oneRowFor('note_comment');
    await admin.put(`/people/${person}.json`, { person: { user_id: account.admin.id } });
    await expectWithheld(row.id, 'note', ['Private plan', 'Nadia', 'Zeta']);

    // And when the recipient cannot see the note when the comment is written, no row at all.
    await admin.post(`/notes/${note}/comments.json`, { comment: { comment: 'Later' } });
    expect(await newRows()).toEqual([]);
  });

  it("the recipient's rights when the mail goes out count, not those when it was written", async () => {
    const wide = await account.addUser({ firstName: 'Walt', lastName: 'Wide', visibility: Visibility.ALL, isAdmin: false });
    const note = (await admin.post('/notes.json', { note: { title: 'Wide plan', content: 'x', deal_id: hiddenDeal, notify_user_ids: [wide.id] } })).body.id;
    await admin.post(`/notes/${note}/comments.json`, { comment: { comment: 'For Walt' } });
    const rows = await newRows();
    expect(rows.map((r) => [r.kind, r.recipient_id])).toEqual([['note_comment', wide.id]]);
    expect((await preview(rows[0]!.id))!.text).toContain('about the deal Zeta Secret Deal');
    // Walt is narrowed to his own records before delivery: the deal, so the note, is hidden from him now.
    await server.sql(`update users set visibility = 'own' where id = ?`, [wide.id]);
    expect(await preview(rows[0]!.id)).toBeNull();
    const result = await deliver(rows[0]!.id);
    expect(result).toEqual({ status: 'failed', attempts: 1, error: 'not sent: its recipient may no longer see the note it is about' });
  });
});
