import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

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
});
