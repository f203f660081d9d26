import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type TServerProcess } from './process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await sleep(50);
  }
}

/** Send a request's head and half its body now; the rest when `finish` is called. Resolves with the raw answer. */
function slowRequest(port: number, body: string) {
  const socket = net.connect(port, '127.0.0.1');
  const half = Math.floor(body.length / 2);
  let answer = '';
  socket.on('data', (d) => {
    answer += d.toString('utf8');
  });
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  const sent = new Promise<void>((resolve) =>
    socket.on('connect', () => {
      socket.write(
        `POST /api/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, half)}`,
        () => resolve(),
      );
    }),
  );
  return { sent, finish: () => socket.write(body.slice(half)), closed };
}

describe('the server process stops gracefully', () => {
  let dir = '';
  let server: TServerProcess | null = null;
  afterEach(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM: refuses new connections, answers the request in flight, closes the database and exits 0', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wms-shutdown-'));
    server = await startServerProcess({ dataDir: dir, env: { SHUTDOWN_TIMEOUT_SECONDS: '20' } });
    const { port } = server;
    const live = await fetch(`http://127.0.0.1:${port}/api/health/`);
    expect(live.status).toBe(200);

    const slow = slowRequest(port, JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }));
    await slow.sent;
    await sleep(300);
    server.child.kill('SIGTERM');
    await waitFor(() => server!.logs.some((l) => l.msg === 'shutting down'));
    // A new connection is refused (the listening socket closes right after the signal) …
    await waitFor(() =>
      fetch(`http://127.0.0.1:${port}/api/health/`).then(
        () => false,
        () => true,
      ),
    );
    await sleep(500);
    // … while the process keeps running for the request whose body is still arriving.
    expect(server.child.exitCode).toBeNull();
    slow.finish();
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(await server.exited).toBe(0);
    const messages = server.logs.map((l) => l.msg);
    expect(messages).toContain('shutting down');
    expect(messages).toContain('stopped');
    // The PGlite directory lock is released: the next process may open it.
    expect(existsSync(path.join(dir, 'wms.lock'))).toBe(false);
  });

  it('a request that outlasts SHUTDOWN_TIMEOUT_SECONDS is cut off and the process exits 1', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'wms-shutdown-'));
    server = await startServerProcess({ dataDir: dir, env: { SHUTDOWN_TIMEOUT_SECONDS: '1' } });
    const slow = slowRequest(server.port, JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' }));
    await slow.sent;
    await sleep(300);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(server.logs.map((l) => l.msg)).toContain(
      'shutdown timed out: requests or jobs cut off (jobs are handed back)',
    );
  });
});
