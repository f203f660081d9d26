import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../../test/harness';
import { openDatabase } from '../client';

const root = path.resolve(import.meta.dirname, '../../../../..');

/** A second process on an open PGlite directory would overwrite confirmed writes: it must refuse to start. */
describe('one process per PGlite data directory', () => {
  it('a second server refuses an open directory with a clear message; the first keeps it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-lock-'));
    const first = await openDatabase({ dataDir });
    try {
      const second = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(`already open in process ${process.pid}`);
      // In this process too: a second open of the same directory is refused.
      await expect(openDatabase({ dataDir })).rejects.toThrow(/already open/);
      expect(JSON.parse(readFileSync(path.join(dataDir, 'wms.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      await first.close();
    }
    // Closed: the lock is gone and the directory opens again.
    const again = await openDatabase({ dataDir });
    await again.close();
  }, 90_000);

  it('takes over a lock left by a process that died', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wms-lock-'));
    const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    writeFileSync(path.join(dataDir, 'wms.lock'), JSON.stringify({ pid: gone, host: hostname() }));
    const db = await openDatabase({ dataDir });
    expect(JSON.parse(readFileSync(path.join(dataDir, 'wms.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await db.close();
  }, 60_000);
});

describe.runIf(process.env.TEST_DATABASE_URL)('first start on PostgreSQL', () => {
  it('with a DATA_DIR that does not exist, keeps running (no ENOENT after listening)', async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'wms-nodir-')), 'not', 'there');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: scratch.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        APP_SECRET_KEY: randomBytes(32).toString('hex'),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
      },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!out.includes('WMS is running') && child.exitCode === null && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(out).toContain('WMS is running');
      await new Promise((r) => setTimeout(r, 1500));
      expect(child.exitCode, out).toBeNull();
    } finally {
      child.kill('SIGTERM');
      await exited;
      await scratch.drop();
    }
  }, 90_000);
});
