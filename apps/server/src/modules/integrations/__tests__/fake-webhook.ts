import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

/**
 * A partner's callback receiver on 127.0.0.1, as a partner would write one from our docs: it recomputes
 * `x-wms-signature` (t=<unix>,v1=HMAC-SHA256(secret, "<t>.<raw body>")) and answers 401 when it does not match, drops a delivery
 * id it has already processed (Idempotency-Key) with 200, and can be told to fail the next N requests.
 */
export interface TFakeWebhook {
  url: string;
  requests: Array<{ headers: http.IncomingHttpHeaders; body: string; status: number }>;
  /** Deliveries processed once each (by delivery id). */
  processed: Map<string, unknown>;
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

export async function startFakeWebhook(secret: string): Promise<TFakeWebhook> {
  const requests: TFakeWebhook['requests'] = [];
  const processed = new Map<string, unknown>();
  let failures: { n: number; status: number } = { n: 0, status: 500 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = (status: number, json: object) => {
        requests.push({ headers: req.headers, body, status });
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      };
      if (failures.n > 0) {
        failures.n--;
        return answer(failures.status, { error: 'temporarily unavailable' });
      }
      // As our docs tell a partner: t=<unix>,v1=HMAC-SHA256(secret, "<t>.<raw body>"), t within 5 minutes.
      const header = String(req.headers['x-wms-signature'] ?? '');
      const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
      const t = Number(parts.t);
      const mac = createHmac('sha256', secret).update(`${parts.t}.${body}`, 'utf8').digest('hex');
      const expected = Buffer.from(`t=${parts.t},v1=${mac}`);
      const given = Buffer.from(header);
      if (
        !Number.isInteger(t) ||
        Math.abs(Date.now() / 1000 - t) > 300 ||
        given.length !== expected.length ||
        !timingSafeEqual(given, expected)
      )
        return answer(401, { error: 'bad signature' });
      const id = String(req.headers['idempotency-key'] ?? '');
      if (!processed.has(id)) processed.set(id, JSON.parse(body));
      return answer(200, { ok: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks/wms`,
    requests,
    processed,
    failNext(n, status = 500) {
      failures = { n, status };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
