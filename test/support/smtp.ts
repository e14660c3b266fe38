import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server in the test process (smtp-server), every mail read back with mailparser. */

export interface Received {
  readonly rcptTo: string[];
  readonly raw: string;
  readonly mail: ParsedMail;
}

/** `hold`: read the mail and never answer (a sender killed mid-delivery); counted in `held`, not received. */
export type SmtpMode = 'accept' | 'reject-rcpt' | 'reject-data' | 'hold';

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

export async function startSmtp(): Promise<{ server: SMTPServer; port: number; received: Received[]; held: Received[]; setMode(mode: SmtpMode): void }> {
  const received: Received[] = [];
  const held: Received[] = [];
  let mode: SmtpMode = 'accept';
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (mode === 'reject-rcpt') return callback(smtpError('Mailbox unavailable', 550));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (mail) => {
            if (mode === 'hold') {
              held.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), raw, mail });
              return;
            }
            received.push({ rcptTo: session.envelope.rcptTo.map((r) => r.address), raw, mail });
            // A server that read the whole mail and still refuses it: the next attempt sends it again.
            callback(mode === 'reject-data' ? smtpError('Try again later', 451) : null);
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server as unknown as { server: { address(): AddressInfo } }).server.address().port;
  return { server, port, received, held, setMode: (m) => (mode = m) };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
