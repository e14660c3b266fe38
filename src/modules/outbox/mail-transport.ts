import { createTransport } from 'nodemailer';
import type { Config } from '../../config/config';

/** One mail as the transport sends it: rendered, addressed, with its stable Message-ID. */
export interface OutgoingMail {
  readonly from: string;
  readonly to: { readonly name: string; readonly address: string };
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** With angle brackets, e.g. `<outbox.12.m3k2@example.com>`. */
  readonly messageId: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Where outbox mail goes. One implementation (SMTP through nodemailer); tests use the same one
 * against an in-process SMTP server. `send` resolves once the server accepted the mail and
 * rejects otherwise, with an error that names no credential of the server.
 */
export interface MailTransport {
  /** `From` of every mail: `MAIL_FROM`. */
  readonly from: string;
  /** The right-hand side of Message-IDs: the domain of `from`. */
  readonly messageIdDomain: string;
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export interface SmtpTransportOptions {
  /** Milliseconds; a send never takes longer than connect + greeting + a few socket timeouts. */
  readonly connectionTimeoutMs?: number;
  readonly greetingTimeoutMs?: number;
  readonly socketTimeoutMs?: number;
}

/** `crm@example.com` or `CRM <crm@example.com>` → `example.com`. */
export function domainOf(from: string): string {
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  const domain = address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  return /^[a-z0-9.-]+$/.test(domain) && domain !== '' ? domain : 'localhost';
}

/** The user and password of an SMTP URL, as they could appear (raw or decoded) in an error. */
function secretsOf(smtpUrl: string): string[] {
  const url = new URL(smtpUrl);
  return [url.username, url.password, decodeURIComponent(url.username), decodeURIComponent(url.password)].filter((s) => s.length >= 3);
}

function redact(err: unknown, secrets: readonly string[]): Error {
  const error = err instanceof Error ? err : new Error(String(err));
  for (const secret of secrets) {
    if (error.message.includes(secret)) error.message = error.message.split(secret).join('***');
  }
  return error;
}

/** SMTP through nodemailer (`smtp://`, `smtps://`, with or without `user:password@`). */
export function smtpMailTransport(smtpUrl: string, from: string, options: SmtpTransportOptions = {}): MailTransport {
  const transporter = createTransport({
    url: smtpUrl,
    connectionTimeout: options.connectionTimeoutMs ?? 10_000,
    greetingTimeout: options.greetingTimeoutMs ?? 10_000,
    socketTimeout: options.socketTimeoutMs ?? 30_000,
  });
  const secrets = secretsOf(smtpUrl);
  return {
    from,
    messageIdDomain: domainOf(from),
    async send(mail) {
      let info;
      try {
        info = await transporter.sendMail({
          from: mail.from,
          to: { name: mail.to.name, address: mail.to.address },
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          headers: { ...mail.headers },
        });
      } catch (err) {
        throw redact(err, secrets);
      }
      // One recipient a mail: a partial acceptance cannot happen, a rejection is a failure.
      if (info.rejected.length > 0 || info.accepted.length === 0) throw new Error(`recipient rejected: ${info.response}`);
    },
    close: () => transporter.close(),
  };
}

/** Issue 13 §2: without `SMTP_URL` nothing is sent, and the outbox stays readable. */
export function mailTransportFromConfig(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): MailTransport | null {
  return config.smtpUrl ? smtpMailTransport(config.smtpUrl, config.mailFrom) : null;
}
