import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { prettyLogLine } from '../log-format';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'wms-config-'));

describe('config', () => {
  it('treats empty variables as unset and generates keys once into DATA_DIR', () => {
    const dir = dataDir();
    const a = loadConfig({ DATA_DIR: dir, DATABASE_URL: '', PORT: '' });
    expect(a.databaseUrl).toBeUndefined();
    expect(a.port).toBe(3000);
    const b = loadConfig({ DATA_DIR: dir });
    expect(Buffer.from(b.jwtSecret).equals(Buffer.from(a.jwtSecret))).toBe(true);
    expect(b.encryptionKey.equals(a.encryptionKey)).toBe(true);
  });

  it('fails fast naming the bad variable', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ DATA_DIR: dataDir(), APP_SECRET_KEY: 'short' })).toThrow(/APP_SECRET_KEY/);
  });

  it('refuses PostgreSQL without the shared secrets, naming the missing ones, and generates no keys', () => {
    const dir = dataDir();
    const url = 'postgres://wms@db.example:5432/wms';
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: url })).toThrow(
      /JWT_SECRET, APP_SECRET_KEY: required with DATABASE_URL/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: url, JWT_SECRET: 'j'.repeat(40) })).toThrow(
      /\n {2}APP_SECRET_KEY: required with DATABASE_URL/,
    );
    expect(existsSync(path.join(dir, 'keys.json'))).toBe(false);
    const ok = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: url,
      JWT_SECRET: 'j'.repeat(40),
      APP_SECRET_KEY: 'a'.repeat(64),
    });
    expect(ok.databaseUrl).toBe(url);
  });

  it('keeps request logs quiet by default, readable in development and JSON in production', () => {
    const dev = loadConfig({ DATA_DIR: dataDir() });
    expect(dev).toMatchObject({ logLevel: 'warn', logFormat: 'pretty' });
    const prod = loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production' });
    expect(prod).toMatchObject({ logLevel: 'info', logFormat: 'json' });
    expect(loadConfig({ DATA_DIR: dataDir(), LOG_LEVEL: 'info', LOG_FORMAT: 'json' })).toMatchObject({
      logLevel: 'info',
      logFormat: 'json',
    });
  });

  it('writes a pino line as one readable line', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 10, 24, 4, 5, 6),
      msg: 'request completed',
      reqId: 'req-1',
      res: { statusCode: 200 },
      responseTime: 12.4,
    });
    expect(prettyLogLine(line)).toBe('04:05:06 INFO  request completed → 200 12 ms (req-1)\n');
    expect(prettyLogLine('not json')).toBe('not json\n');
  });
});
