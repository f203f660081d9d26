/**
 * The server's log lines for a person at a terminal (LOG_FORMAT=pretty, the default outside production): one short
 * line per entry — time, level, message, and for a request its method, URL, status and duration — instead of pino's
 * JSON. Production keeps JSON for log collectors.
 */

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

interface TLogEntry {
  level?: number;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
}

/** One pino JSON line as a readable line (anything that is not JSON passes through). */
export function prettyLogLine(line: string): string {
  let e: TLogEntry;
  try {
    e = JSON.parse(line) as TLogEntry;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = new Date(e.time ?? Date.now()).toISOString().slice(11, 19);
  const parts = [time, (LEVELS[e.level ?? 30] ?? 'INFO').padEnd(5), e.msg ?? ''];
  if (e.req?.method) parts.push(`${e.req.method} ${e.req.url ?? ''}`);
  if (e.res?.statusCode) parts.push(`→ ${e.res.statusCode}`);
  if (e.responseTime !== undefined) parts.push(`${Math.round(e.responseTime)} ms`);
  if (e.reqId) parts.push(`(${e.reqId})`);
  const out = parts.filter(Boolean).join(' ');
  return `${out}${e.err?.stack ? `\n${e.err.stack}` : ''}\n`;
}

/** A destination for pino that writes pretty lines to stdout. */
export const prettyLogStream = { write: (line: string) => process.stdout.write(prettyLogLine(line)) };
