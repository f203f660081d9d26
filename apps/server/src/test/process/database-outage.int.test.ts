import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgBin, startCluster } from '../../../../../scripts/pg-cluster.mjs';
import { TEST_ENGINE } from '../harness';
import { startServerProcess, type TServerProcess } from './process';

/**
 * A young server process survives its PostgreSQL stopping: every client it opens (the pools, the job queue, the
 * LISTEN connection, the advisory-lock connections) handles a lost connection, so nothing is left as an unhandled
 * 'error' event. PostgreSQL (a cluster of this test's own) is stopped at several moments after the process starts
 * listening — while its job queue is still starting its schedules and workers — and started again: the process
 * stays up, /api/health/ready answers 503 while the database is away and 200 once it is back, and what it wrote
 * about the outage are JSON log lines, not a stack trace.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check().catch((err) => (err instanceof ServerExited ? Promise.reject(err) : false)))) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

class ServerExited extends Error {}

const ready = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health/ready`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status);

const onPostgres = TEST_ENGINE === 'postgres' && findPgBin() !== null;

describe.skipIf(!onPostgres)('the server process when PostgreSQL stops (PostgreSQL)', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('PostgreSQL down when the process starts: it waits (JSON lines), then starts once PostgreSQL is back', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wms-outage-'));
    let server: TServerProcess | null = null;
    let halted = false;
    try {
      cluster.halt('fast');
      halted = true;
      const starting = startServerProcess({
        dataDir: dir,
        env: {
          DATABASE_URL: cluster.url,
          JWT_SECRET: 'outage-test-jwt-secret-0123456789abcdef',
          APP_SECRET_KEY: 'ab'.repeat(32),
          SHUTDOWN_TIMEOUT_SECONDS: '40',
        },
      });
      starting.catch(() => undefined);
      await sleep(8_000);
      cluster.resume();
      halted = false;
      server = await starting;
      expect(await ready(server.port)).toBe(200);
      expect(server.logs.some((l) => l.msg === 'database not reachable at start: trying again')).toBe(true);
      expect(server.other.join('\n')).not.toMatch(/Unhandled 'error' event|^\s+at /m);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      if (halted) cluster.resume();
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  // Milliseconds after "server listening" at which PostgreSQL stops.
  for (const [delay, mode] of [
    [0, 'fast'],
    [1_500, 'immediate'],
    [5_000, 'fast'],
  ] as const) {
    it(`PostgreSQL stops (${mode}) ${delay} ms after the process listens: it stays up, /ready 503 then 200`, async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'wms-outage-'));
      let server: TServerProcess | null = null;
      let halted = false;
      let loading = true;
      try {
        server = await startServerProcess({
          dataDir: dir,
          env: {
            DATABASE_URL: cluster.url,
            JWT_SECRET: 'outage-test-jwt-secret-0123456789abcdef',
            APP_SECRET_KEY: 'ab'.repeat(32),
            // The stop after the outage must be clean (exit 0). A job in flight at SIGTERM on a starved machine (the
            // whole suite beside it) once took over 10 s to end: the budget is wider than production's default.
            SHUTDOWN_TIMEOUT_SECONDS: '40',
            SIGNUP_IP_LIMIT_PER_HOUR: '100000',
            SEED_DEMO: '1',
          },
        });
        const { port } = server;
        let exitCode: number | null | undefined;
        void server.exited.then((code) => {
          exitCode = code;
        });
        // Requests that write in transactions (a registration: company, owner, mail job) keep going through the
        // outage, so connections are checked out — mid-transaction — when the database goes away.
        let sent = 0;
        const load = async (lane: number) => {
          while (loading) {
            const n = sent++;
            await fetch(`http://127.0.0.1:${port}/api/register/`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                company_name: `Outage ${n}`,
                name: 'N',
                email: `outage-${delay}-${lane}-${n}@example.tw`,
              }),
              signal: AbortSignal.timeout(10_000),
            }).catch(() => undefined);
          }
        };
        const lanes = Promise.all([0, 1, 2, 3].map(load));
        await sleep(delay + 300);
        cluster.halt(mode);
        halted = true;
        const alive = () => {
          if (exitCode !== undefined)
            throw new ServerExited(`the server exited with ${exitCode}:\n${server!.other.join('\n').slice(-3000)}`);
        };
        await waitFor('/ready 503', async () => {
          alive();
          return (await ready(port)) === 503;
        });
        // Down for a while: idle connections, the queue's polls and the LISTEN connection all meet the outage.
        await sleep(4_000);
        expect(exitCode, server.other.join('\n')).toBeUndefined();
        expect(await ready(port)).toBe(503);
        loading = false;
        await lanes;
        cluster.resume();
        halted = false;
        await waitFor('/ready 200', async () => (await ready(port)) === 200);
        // And it keeps working: a few seconds later still up and ready.
        await sleep(3_000);
        expect(exitCode, server.other.join('\n')).toBeUndefined();
        expect(await ready(port)).toBe(200);
        // The load was there, and the outage was told as JSON log lines.
        expect(sent).toBeGreaterThan(4);
        expect(
          server.logs.some((l) => l.msg === 'database connection lost' && (l.level === 40 || l.level === 'warn')),
        ).toBe(true);
        const text = server.other.join('\n');
        expect(text).not.toMatch(/Unhandled 'error' event|Connection terminated unexpectedly|^\s+at /m);
        server.child.kill('SIGTERM');
        // A stop after the outage is clean too (the last log lines say why when it is not).
        const code = await server.exited;
        expect(code, JSON.stringify(server.logs.slice(-6))).toBe(0);
      } finally {
        loading = false;
        if (halted) cluster.resume();
        if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
        rmSync(dir, { recursive: true, force: true });
      }
    }, 180_000);
  }
});
