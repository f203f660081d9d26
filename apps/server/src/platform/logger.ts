import pino, { type Logger } from 'pino';
import type { TConfig } from '../config';
import { prettyLogStream } from './log-format';

/** Never in a log line: credentials in headers and bodies. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.body.password',
  'req.body.refresh',
  'req.body.otp',
];

/**
 * The process's one logger (pino): Fastify's request log, the job runner, the mailer and start-up/shutdown all write
 * through it — JSON lines in production (LOG_FORMAT=json), one readable line per entry otherwise.
 */
export function createLogger(config: Pick<TConfig, 'logLevel' | 'logFormat'>): Logger {
  const options = { level: config.logLevel, redact: LOG_REDACT };
  return config.logFormat === 'pretty' ? pino(options, prettyLogStream) : pino(options);
}
