import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { authRoutes } from '@wms/contracts';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type TServerProcess } from './process';

const serverRoot = path.resolve(import.meta.dirname, '../../..');
const repoRoot = path.resolve(serverRoot, '../..');

describe('the compiled server (npm run build:server)', () => {
  const out = path.join(serverRoot, '.tmp', `dist-${process.pid}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'wms-compiled-'));
  let server: TServerProcess | null = null;
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(out, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs as plain `node main.js` on a new data directory: migrates, logs in, parses an upload in its worker, stops with 0', async () => {
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build-server.mjs'), out], {
      encoding: 'utf8',
    });
    expect(build.status, build.stderr).toBe(0);
    for (const f of ['main.js', 'migrate.js', 'check-stock.js', 'sheet-worker.js', 'migrations/0000_foundation.sql'])
      expect(existsSync(path.join(out, f)), f).toBe(true);

    server = await startServerProcess({
      dataDir,
      compiledDir: out,
      env: { SEED_DEMO: '1', DEMO_CUSTOMER_PASSWORD: 'compiled-demo-1', WEB_DIST: path.join(dataDir, 'no-web') },
    });
    const base = `http://127.0.0.1:${server.port}`;
    expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
    // The generated employee password is kept for later starts (mode 600); the one from env is never written down.
    const keptFile = path.join(dataDir, 'demo-logins.json');
    expect(statSync(keptFile).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(readFileSync(keptFile, 'utf8')) as { logins: Array<{ role: string; password: string }> };
    expect(kept.logins.map((l) => l.role)).toEqual(['EMPLOYEE']);
    expect(server.other.join('')).toContain(kept.logins[0]!.password);
    expect(readFileSync(keptFile, 'utf8')).not.toContain('compiled-demo-1');
    const login = await fetch(`${base}/api/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@wms.local', password: 'compiled-demo-1' }),
    });
    expect(login.status).toBe(200);
    const { access } = (await login.json()) as { access: string };

    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('orders');
    ws.addRow(['訂單編號', '收件者姓名', '數量']);
    ws.addRow(['A-1', '黃小姐', 1]);
    const file = Buffer.from(await wb.xlsx.writeBuffer());
    const inspect = await fetch(`${base}/api/order-import-forms/inspect/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
      body: JSON.stringify({ file_base64: file.toString('base64'), file_name: 'orders.xlsx' }),
    });
    expect(inspect.status).toBe(200);
    expect(await inspect.json()).toMatchObject({
      headers: ['訂單編號', '收件者姓名', '數量'],
      samples: [['A-1', '黃小姐', '1']],
    });

    // One JSON line per request (the README's promise): the login and the upload each wrote exactly one.
    const requestLines = server.logs.filter((l) => l.reqId !== undefined && (l.req || l.res));
    const perRequest = new Map<unknown, number>();
    for (const l of requestLines) perRequest.set(l.reqId, (perRequest.get(l.reqId) ?? 0) + 1);
    expect(perRequest.size).toBeGreaterThanOrEqual(2);
    expect([...perRequest.values()].every((n) => n === 1)).toBe(true);
    expect(requestLines.find((l) => (l.req as { url?: string }).url === authRoutes.login.path)).toMatchObject({
      msg: 'request completed',
      req: { method: 'POST' },
      res: { statusCode: 200 },
    });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.logs.map((l) => l.msg)).toEqual(expect.arrayContaining(['server listening', 'stopped']));
  });
});
