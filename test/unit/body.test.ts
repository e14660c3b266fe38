import express, { type Request } from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { FacadeInputError } from '../../rest-facade/errors/facade-error';
import { readBody } from '../../rest-facade/request/body';

/**
 * readBody works on a real express request: a tiny server reads the body the way the v3 router
 * does (express.raw, every type) and answers what readBody made of it, or the error it refused with.
 * `/text` reads it as a string and `/none` does not read it, the other shapes `req.body` can take.
 */
let server: Server;
let base: string;

function answer(req: Request, res: express.Response): void {
  readBody(req).then(
    (body) => res.json({ body }),
    (error: unknown) => {
      if (error instanceof FacadeInputError) res.status(299).json({ error: { field: error.field, message: error.message, status: error.status } });
      else res.status(500).json({ unexpected: String(error) });
    },
  );
}

beforeAll(async () => {
  const app = express();
  app.post('/raw', express.raw({ type: () => true, limit: '10mb' }), answer);
  app.post('/text', express.text({ type: () => true }), answer);
  app.post('/none', answer);
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Outcome {
  body?: Record<string, unknown>;
  error?: { field: string; message: string; status: number };
}

async function post(body: string | Buffer, contentType?: string, path = '/raw'): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body });
  const json = (await response.json()) as Outcome & { unexpected?: string };
  if (response.status === 500) throw new Error(`readBody threw something else: ${json.unexpected}`);
  return json;
}

async function read(body: string | Buffer, contentType?: string, path?: string): Promise<Record<string, unknown>> {
  const outcome = await post(body, contentType, path);
  if (!outcome.body) throw new Error(`expected a body, got ${JSON.stringify(outcome.error)}`);
  return outcome.body;
}

async function refused(body: string | Buffer, contentType?: string): Promise<{ field: string; message: string; status: number }> {
  const outcome = await post(body, contentType);
  if (!outcome.error) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.body)}`);
  return outcome.error;
}

function multipart(fields: Array<[string, string]>, boundary = 'XyZboundary', files: Array<[string, string]> = []): Buffer {
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  for (const [name, content] of files) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n`);
  }
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`);
}

const MULTIPART = 'multipart/form-data; boundary=XyZboundary';

describe('readBody: empty bodies (DECISIONS: never rejected)', () => {
  it('reads an empty body as {} whatever the content type', async () => {
    for (const type of [undefined, 'application/json', 'application/x-www-form-urlencoded', MULTIPART, 'multipart/form-data']) {
      expect(await read('', type)).toEqual({});
    }
  });

  it('reads a whitespace-only body as {}, even when declared JSON', async () => {
    expect(await read('  \r\n\t ', 'application/json')).toEqual({});
    expect(await read('   ')).toEqual({});
  });

  it('reads {} when express left no body at all', async () => {
    expect(await read('person[last_name]=Lee', 'application/x-www-form-urlencoded', '/none')).toEqual({});
  });
});

describe('readBody: urlencoded forms (v3 §1.3)', () => {
  it('nests root[attr] and root[attr][] params', async () => {
    expect(await read('person[first_name]=Ann&person[tag_ids][]=1&person[tag_ids][]=2', 'application/x-www-form-urlencoded')).toEqual({
      person: { first_name: 'Ann', tag_ids: ['1', '2'] },
    });
  });

  it('reads a form without a content type when it does not look like JSON', async () => {
    expect(await read('note[content]=a%20b')).toEqual({ note: { content: 'a b' } });
  });

  it('reads a form sent as a string body the same way', async () => {
    expect(await read('note[content]=x&note[subject_id]=3', 'application/x-www-form-urlencoded', '/text')).toEqual({ note: { content: 'x', subject_id: '3' } });
  });

  it('keeps a declared form as a form even when it starts like JSON', async () => {
    expect(await read('{"a":1}', 'application/x-www-form-urlencoded')).toEqual({ '{"a":1}': '' });
  });

  it('refuses form params past the limits, naming the param', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&');
    expect(await refused(tooMany, 'application/x-www-form-urlencoded')).toEqual({
      field: 'k1000',
      message: 'exceeds the limit of 1000 parameters',
      status: 413,
    });
    expect(await refused('a=1&a[b]=2', 'application/x-www-form-urlencoded')).toMatchObject({ field: 'a[b]', status: 400 });
  });
});

describe('readBody: JSON bodies (v3 §1.3)', () => {
  it('reads JSON declared by its content type, in any case', async () => {
    expect(await read('{"person":{"last_name":"Lee","tag_ids":[1,2]}}', 'application/json')).toEqual({ person: { last_name: 'Lee', tag_ids: [1, 2] } });
    expect(await read('{"person":{"last_name":"Lee"}}', 'Application/JSON; charset=UTF-8')).toEqual({ person: { last_name: 'Lee' } });
    expect(await read('{"a":1}', 'application/vnd.api+json')).toEqual({ a: 1 });
  });

  it('reads JSON without a content type (or a non-form one) when it starts with { or [', async () => {
    expect(await read('{"note":{"content":"x"}}')).toEqual({ note: { content: 'x' } });
    expect(await read('\n  {"note":{"content":"x"}}', 'text/plain')).toEqual({ note: { content: 'x' } });
    expect(await read('{"note":{"content":"x"}}', 'application/json', '/text')).toEqual({ note: { content: 'x' } });
  });

  it('does not take a body as JSON for a brace inside it', async () => {
    expect(await read('a={"b":1}')).toEqual({ a: '{"b":1}' });
  });

  it('answers 400 naming the body for malformed JSON', async () => {
    expect(await refused('{"person":', 'application/json')).toEqual({ field: 'body', message: 'is not valid JSON', status: 400 });
    expect(await refused('[1,')).toEqual({ field: 'body', message: 'is not valid JSON', status: 400 });
  });

  it('answers 400 for JSON that is not an object', async () => {
    for (const text of ['null', '"x"', '3', 'true']) {
      expect(await refused(text, 'application/json')).toEqual({ field: 'body', message: 'must be a JSON object', status: 400 });
    }
    expect(await refused('[{"a":1}]')).toEqual({ field: 'body', message: 'must be a JSON object', status: 400 });
  });

  it('applies the param limits and drops prototype keys', async () => {
    expect(await read('{"__proto__":{"x":1},"person":{"constructor":1,"last_name":"Lee"}}', 'application/json')).toEqual({ person: { last_name: 'Lee' } });
    expect(await refused('{"a":[[[[[[1]]]]]]}', 'application/json')).toMatchObject({ field: 'a[][][][][]', status: 422 });
    expect(await refused(JSON.stringify({ person: { tag_ids: new Array(1001).fill(1) } }), 'application/json')).toMatchObject({
      field: 'person[tag_ids]',
      status: 413,
    });
  });
});

describe('readBody: multipart/form-data', () => {
  it('reads fields like a urlencoded form', async () => {
    const body = multipart([
      ['person[first_name]', 'Ann'],
      ['person[tag_ids][]', '1'],
      ['person[tag_ids][]', '2'],
    ]);
    expect(await read(body, MULTIPART)).toEqual({ person: { first_name: 'Ann', tag_ids: ['1', '2'] } });
    expect(await read(body, 'Multipart/Form-Data; boundary=XyZboundary')).toEqual({ person: { first_name: 'Ann', tag_ids: ['1', '2'] } });
  });

  it('does not take multipart as JSON even when a field looks like JSON', async () => {
    expect(await read(multipart([['a', '{"b":1}']]), MULTIPART)).toEqual({ a: '{"b":1}' });
  });

  it('ignores file parts, keeping the fields', async () => {
    expect(await read(multipart([['note[content]', 'x']], 'XyZboundary', [['upload', 'file body']]), MULTIPART)).toEqual({ note: { content: 'x' } });
  });

  it('answers 400 when the boundary is missing', async () => {
    expect(await refused(multipart([['a', '1']]), 'multipart/form-data')).toEqual({
      field: 'body',
      message: 'is not valid multipart/form-data (no boundary)',
      status: 400,
    });
  });

  it('answers 400 for a truncated multipart body', async () => {
    const truncated = Buffer.from('--XyZboundary\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue without an end');
    expect(await refused(truncated, MULTIPART)).toEqual({ field: 'body', message: 'is not valid multipart/form-data', status: 400 });
  });

  // busboy counts a field reaching fieldSize, and the parts count reaching `parts`, as over the
  // limit, so the exact limits themselves are refused: the tests stay one either side of them.
  it('takes a field under 256 KiB and answers 413 naming a larger one', async () => {
    const limit = 256 * 1024;
    expect(((await read(multipart([['note[content]', 'x'.repeat(limit - 1)]]), MULTIPART)).note as { content: string }).content).toHaveLength(limit - 1);
    expect(await refused(multipart([['note[content]', 'x'.repeat(limit + 1)]]), MULTIPART)).toEqual({
      field: 'note[content]',
      message: `is too large (maximum is ${limit} bytes)`,
      status: 413,
    });
  });

  it('names the first oversized field when several are', async () => {
    const big = 'x'.repeat(256 * 1024 + 1);
    expect(
      await refused(
        multipart([
          ['a', big],
          ['b', big],
        ]),
        MULTIPART,
      ),
    ).toMatchObject({ field: 'a', status: 413 });
  });

  const fields = (n: number) => Array.from({ length: n }, (_, i): [string, string] => [`k${i}`, '1']);

  it('takes 999 fields and answers 413 for 1001', async () => {
    expect(Object.keys(await read(multipart(fields(999)), MULTIPART))).toHaveLength(999);
    expect(await refused(multipart(fields(1001)), MULTIPART)).toEqual({ field: 'body', message: 'has too many parts (maximum is 1000)', status: 413 });
  });

  it('counts file parts too', async () => {
    expect(Object.keys(await read(multipart(fields(998), 'XyZboundary', [['upload', 'x']]), MULTIPART))).toHaveLength(998);
    expect(
      await refused(
        multipart(fields(999), 'XyZboundary', [
          ['upload', 'x'],
          ['other', 'y'],
        ]),
        MULTIPART,
      ),
    ).toMatchObject({ field: 'body', status: 413 });
  });

  it('refuses fields that conflict, as a form would', async () => {
    expect(
      await refused(
        multipart([
          ['a', '1'],
          ['a[b]', '2'],
        ]),
        MULTIPART,
      ),
    ).toMatchObject({ field: 'a[b]', message: 'conflicts with another parameter of the same name', status: 400 });
  });
});
