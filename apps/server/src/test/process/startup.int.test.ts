import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverRoot = path.resolve(import.meta.dirname, '../../..');

describe('the server process refuses a bad production set-up', () => {
  it('PostgreSQL without JWT_SECRET and APP_SECRET_KEY: exits 1 before opening anything, naming both', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'wms-startup-'));
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(serverRoot, 'src/main.ts')], {
        cwd: serverRoot,
        env: {
          ...process.env,
          DATA_DIR: dir,
          DATABASE_URL: 'postgres://wms@127.0.0.1:1/wms',
          JWT_SECRET: '',
          APP_SECRET_KEY: '',
          PORT: '0',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('JWT_SECRET, APP_SECRET_KEY: required with DATABASE_URL');
      expect(existsSync(path.join(dir, 'keys.json'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
