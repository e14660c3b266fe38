/** JSON lines on stderr. Credentials never reach a log line: keys are redacted before writing. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

const SECRET_PARAM = /((?:api_key|app_key|apikey|password|token)=)[^&\s"]+/gi;
const SECRET_HEADER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
/** A document's public link carries its credential in the path (src/modules/documents/document.public-link.ts). */
const SECRET_PATH = /(\/documents\/public\/)[A-Za-z0-9_-]+/g;

export function redact(text: string): string {
  return text.replace(SECRET_PARAM, '$1[REDACTED]').replace(SECRET_HEADER, '$1[REDACTED]').replace(SECRET_PATH, '$1[REDACTED]');
}

let threshold = ORDER[(process.env.LOG_LEVEL as Level) ?? 'info'] ?? ORDER.info;

export function setLogLevel(level: Level | 'silent'): void {
  threshold = ORDER[level];
}

type Sink = (line: string) => void;
const stderrSink: Sink = (line) => process.stderr.write(line + '\n');
let sink: Sink = stderrSink;

/** Where lines go (each already redacted, without its newline); `null` restores stderr. For tests. */
export function setLogSink(next: Sink | null): void {
  sink = next ?? stderrSink;
}

function write(level: Level, message: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < threshold) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  sink(redact(line));
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => write('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write('error', message, fields),
};
