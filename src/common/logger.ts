import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

/**
 * JSON lines on stderr, written by pino. Credentials never reach a log line: secret-bearing keys
 * (`headers.authorization`, `apiKey`, …) are censored by pino's `redact` paths, and every line is
 * redacted once more as text before it is written (a key in a query string, a Bearer token, a
 * document's public link or an export's download link quoted inside a message or an error).
 *
 * The API the service calls is `logger.info(message, fields)` (and debug, warn, error);
 * `setLogLevel` and `setLogSink` (tests) act on every logger made here, the request log's too.
 */
type Level = 'debug' | 'info' | 'warn' | 'error';
export type LogLevel = Level | 'silent';

const SECRET_PARAM = /((?:api_key|app_key|apikey|password|token)=)[^&\s"]+/gi;
const SECRET_HEADER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
/** A document's public link and an export's download link carry their credential in the path (src/modules/documents/document.public-link.ts). */
const SECRET_PATH = /(\/(?:documents\/public|exports\/download)\/)[A-Za-z0-9_-]+/g;
/** A scoped API key's secret wherever it is quoted: its prefix (src/modules/api-keys) makes it recognisable. */
const SCOPED_KEY = /(crm_sk_)[A-Za-z0-9_-]+/g;

export function redact(text: string): string {
  return text
    .replace(SECRET_PARAM, '$1[REDACTED]')
    .replace(SECRET_HEADER, '$1[REDACTED]')
    .replace(SECRET_PATH, '$1[REDACTED]')
    .replace(SCOPED_KEY, '$1[REDACTED]');
}

/**
 * Fields censored wherever a call puts them: request headers (as logged by hand or by a library
 * handed `req`) and keys named as what they are. Literal paths only: a wildcard first segment
 * would make pino inspect every field of every line.
 */
const SECRET_HEADERS = ['authorization', 'cookie', '["set-cookie"]', '["x-api-key"]', '["x-app-key"]', '["proxy-authorization"]'];
const REDACT_PATHS = [
  ...['headers', 'req.headers', 'request.headers'].flatMap((root) => SECRET_HEADERS.map((h) => (h.startsWith('[') ? `${root}${h}` : `${root}.${h}`))),
  'apiKey',
  'api_key',
  'appKey',
  'app_key',
  'secret',
  'password',
  'token',
];

type Sink = (line: string) => void;
const stderrSink: Sink = (line) => process.stderr.write(line + '\n');
let sink: Sink = stderrSink;

/** Where lines go (each already redacted, without its newline); `null` restores stderr. For tests. */
export function setLogSink(next: Sink | null): void {
  sink = next ?? stderrSink;
}

/** pino's destination: one call per line, its newline included. */
const destination: DestinationStream = {
  write(chunk: string) {
    if (sink === stderrSink) process.stderr.write(redact(chunk));
    else sink(redact(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk));
  },
};

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];
const initial = process.env.LOG_LEVEL as LogLevel | undefined;

const root: PinoLogger = pino(
  {
    level: initial && LEVELS.includes(initial) ? initial : 'info',
    // The lines as before pino: {"level":"info","time":"<ISO>",...,"message":"..."}, no pid or hostname.
    base: undefined,
    messageKey: 'message',
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
  },
  destination,
);

/** Loggers made from the root (the request log's): pino fixes a child's level when it is made, so setLogLevel sets theirs too. */
const followers = new Set<WeakRef<PinoLogger>>();

export function setLogLevel(level: LogLevel): void {
  root.level = level;
  for (const ref of followers) {
    const child = ref.deref();
    if (child) child.level = level;
    else followers.delete(ref);
  }
}

/** The pino logger behind `logger`, for libraries that take one (pino-http): its children write where this module writes. */
export function pinoLogger(): PinoLogger {
  return root;
}

/** Makes a logger derived from pinoLogger() take every later setLogLevel (a child made from it afterwards inherits its level). */
export function followLogLevel<L extends PinoLogger>(child: L): L {
  child.level = root.level;
  followers.add(new WeakRef(child));
  return child;
}

function method(level: Level) {
  return (message: string, fields?: Record<string, unknown>): void => {
    if (fields === undefined) root[level](message);
    else root[level](fields, message);
  };
}

export const logger = {
  debug: method('debug'),
  info: method('info'),
  warn: method('warn'),
  error: method('error'),
};
