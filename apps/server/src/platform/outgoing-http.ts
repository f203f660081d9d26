import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Db } from '../db/client';
import { integration_attempts } from '../db/schema';
import { AppError } from './errors';

/**
 * The one outgoing HTTP client for every outside system (payment gateways, Shopee, carriers, partners' callback
 * URLs): a timeout per attempt; retries only for idempotent calls (and only on a transport error, 429 or 5xx);
 * every attempt recorded in `integration_attempts` with secrets masked; user-entered URLs refused when they point at
 * a private, loopback or link-local address (SSRF) unless the operator allows it — checked on the address actually
 * connected to, so a DNS answer that changes between check and connect cannot slip through.
 */

export interface TOutgoingRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Safe to send twice (GET, or a POST the other side de-duplicates by an idempotency key). Default: GET only. */
  idempotent?: boolean;
  /** Retries after the first attempt for idempotent calls (default 2). */
  retries?: number;
  timeoutMs?: number;
  /** The URL was typed by a user (a partner's callback URL): private and loopback targets are refused. */
  userUrl?: boolean;
  /** Values to mask wherever they appear in the recorded request and response (keys, tokens, signatures). */
  secrets?: string[];
}

export interface TOutgoingResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text. */
  body: string;
  /** The body as sent (a carrier's label PDF). */
  raw: Buffer;
  attempts: number;
}

/** A body that is not text (a PDF, an image) is recorded as its type and size, not as mangled UTF-8. */
const BINARY_TYPE = /^(application\/(pdf|octet-stream|zip)|image\/)/i;

export interface TAttemptContext {
  customerId: string | null;
  provider: string;
  operation: string;
  reference?: string | null;
}

const MAX_RECORDED = 16 * 1024;
const MAX_RESPONSE = 5 * 1024 * 1024;
/**
 * Kept-alive connections to the hosts, dropped after 4 s idle: before the host drops them (Node servers after 5 s,
 * nginx 75 s, most APIs longer), so a request is not written on a connection the host is closing at that moment.
 */
const AGENT_OPTIONS = { keepAlive: true, timeout: 4_000 };
const httpAgent = new http.Agent(AGENT_OPTIONS);
const httpsAgent = new https.Agent(AGENT_OPTIONS);
const SENSITIVE_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|.*signature.*|.*token.*|.*secret.*)$/i;
const SENSITIVE_KEY =
  /(password|passwd|secret|token|api[_-]?key|partner[_-]?key|hash[_-]?(key|iv)|check_?mac_?value|trade_?sha|sign(ature)?|card_?(key|token|secret)|prime|authorization)$/i;
export const MASK = '••••••';

/** Is this address private, loopback, link-local, unique-local, multicast or unspecified (not on the internet)? */
export function isPrivateAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  if (v === 6) {
    const x = address.toLowerCase();
    if (x === '::' || x === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(x);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(x);
  }
  return true;
}

/** Mask secret-looking fields of a JSON or form body, header values and query parameters, and the given values. */
export function maskSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join(MASK);
  // JSON "key": "value" and key=value (query strings, form bodies).
  out = out.replace(/"([\w-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"/g, (m, k: string) =>
    SENSITIVE_KEY.test(k) ? `"${k}":"${MASK}"` : m,
  );
  out = out.replace(/(^|[?&])([\w-]+)=([^&\s]*)/g, (m, pre: string, k: string) =>
    SENSITIVE_KEY.test(k) ? `${pre}${k}=${MASK}` : m,
  );
  return out;
}

function maskHeaders(headers: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = SENSITIVE_HEADER.test(k) ? MASK : maskSecrets(v, secrets);
  return out;
}

const cut = (s: string | null | undefined) =>
  s == null ? null : s.length > MAX_RECORDED ? `${s.slice(0, MAX_RECORDED)}…` : s;

type TLookup = NonNullable<http.RequestOptions['lookup']>;

export class OutgoingHttp {
  constructor(
    private readonly db: Db,
    private readonly opts: {
      /** Operator setting: allow user-entered URLs to reach private/loopback addresses (a test or intranet set-up). */
      allowPrivateTargets: boolean;
      defaultTimeoutMs?: number;
    },
  ) {}

  /** Send one request (with retries where allowed); every attempt is recorded. Transport failures throw. */
  async send(req: TOutgoingRequest, ctx: TAttemptContext): Promise<TOutgoingResponse> {
    const idempotent = req.idempotent ?? req.method === 'GET';
    const retries = idempotent ? (req.retries ?? 2) : 0;
    let last: unknown;
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      try {
        const res = await this.attempt(req, ctx, attempt);
        if (attempt <= retries && (res.status === 429 || res.status >= 500)) {
          await new Promise((r) => setTimeout(r, 250 * 2 ** (attempt - 1)));
          continue;
        }
        return { ...res, attempts: attempt };
      } catch (err) {
        last = err;
        if (err instanceof AppError && err.code === 'TARGET_NOT_ALLOWED') throw err;
        if (attempt <= retries) await new Promise((r) => setTimeout(r, 250 * 2 ** (attempt - 1)));
      }
    }
    throw last;
  }

  private async attempt(
    req: TOutgoingRequest,
    ctx: TAttemptContext,
    attempt: number,
  ): Promise<Omit<TOutgoingResponse, 'attempts'>> {
    const secrets = req.secrets ?? [];
    const headers = { ...(req.headers ?? {}) };
    if (req.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
      headers['content-length'] = String(Buffer.byteLength(req.body));
    const t0 = Date.now();
    let status: number | null = null;
    let body: string | null = null;
    let error: string | null = null;
    try {
      const res = await this.request(req, headers, req.idempotent ?? req.method === 'GET');
      status = res.status;
      body = BINARY_TYPE.test(res.headers['content-type'] ?? '')
        ? `[${res.headers['content-type']}, ${res.raw.length} bytes]`
        : res.body;
      return res;
    } catch (err) {
      error = err instanceof AppError ? err.code : err instanceof Error ? err.message : String(err);
      throw err;
    } finally {
      await this.db
        .insert(integration_attempts)
        .values({
          customer_id: ctx.customerId,
          provider: ctx.provider,
          operation: ctx.operation,
          reference: ctx.reference ?? null,
          attempt,
          method: req.method,
          url: maskSecrets(req.url, secrets),
          request_headers: maskHeaders(headers, secrets),
          request_body: cut(req.body === undefined ? null : maskSecrets(req.body, secrets)),
          status,
          response_body: cut(body === null ? null : maskSecrets(body, secrets)),
          error,
          duration_ms: Date.now() - t0,
        })
        .catch(() => undefined);
    }
  }

  private request(
    req: TOutgoingRequest,
    headers: Record<string, string>,
    idempotent: boolean,
  ): Promise<{ status: number; headers: Record<string, string>; body: string; raw: Buffer }> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return Promise.reject(new AppError('INVALID_FIELD', { field: 'url' }));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return Promise.reject(new AppError('INVALID_FIELD', { field: 'url' }));
    const guard = req.userUrl && !this.opts.allowPrivateTargets;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (guard && isIP(host) && isPrivateAddress(host))
      return Promise.reject(new AppError('TARGET_NOT_ALLOWED', { field: 'url', host }));
    // The address is checked where the socket connects (no second DNS answer between check and connect).
    const lookup: TLookup = (hostname, options, cb) => {
      dnsLookup(hostname, { ...options, all: false }, (err, address, family) => {
        if (err) return cb(err, '', 0);
        if (guard && isPrivateAddress(address as string))
          return cb(new AppError('TARGET_NOT_ALLOWED', { field: 'url', host: hostname }) as unknown as Error, '', 0);
        cb(null, address as string, family as number);
      });
    };
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const send = (fresh: boolean) => {
        const r = lib.request(
          url,
          {
            method: req.method,
            headers,
            lookup,
            timeout: req.timeoutMs ?? this.opts.defaultTimeoutMs ?? 30_000,
            // The second try: a connection of its own, not another idle one of the pool.
            agent: fresh ? false : url.protocol === 'https:' ? httpsAgent : httpAgent,
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (c: Buffer) => {
              size += c.length;
              if (size > MAX_RESPONSE) {
                r.destroy(new Error('response too large'));
                return;
              }
              chunks.push(c);
            });
            res.on('end', () => {
              const out: Record<string, string> = {};
              for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out[k] = String(v);
              const raw = Buffer.concat(chunks);
              resolve({ status: res.statusCode ?? 0, headers: out, body: raw.toString('utf8'), raw });
            });
            res.on('error', reject);
          },
        );
        r.on('timeout', () =>
          r.destroy(new Error(`timeout after ${req.timeoutMs ?? this.opts.defaultTimeoutMs ?? 30_000} ms`)),
        );
        r.on('error', (err: NodeJS.ErrnoException) => {
          // A kept-alive connection the host reset: an idempotent request (a GET, a query) is sent once more on a
          // new connection. Anything else is not: the host may have acted on it before the reset (a charge, an order),
          // so the caller learns it failed and finds out what happened (the payments' confirmation reads the record).
          if (!fresh && idempotent && r.reusedSocket && err.code === 'ECONNRESET') send(true);
          else reject(err);
        });
        if (req.body !== undefined) r.write(req.body);
        r.end();
      };
      send(false);
    });
  }
}
