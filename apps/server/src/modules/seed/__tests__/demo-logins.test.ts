import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoLoginsPath, readDemoLogins, saveDemoLogins } from '../demo-logins';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'wms-demo-logins-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('DATA_DIR/demo-logins.json', () => {
  it('keeps the generated logins with mode 600 and reads them back', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    saveDemoLogins(dir, [
      { role: 'EMPLOYEE', email: 'staff@wms.local', password: 'Gen-Pass-123' },
      { role: 'CUSTOMER', email: 'demo@wms.local', password: 'Gen-Pass-456' },
    ]);
    expect(statSync(demoLoginsPath(dir)).mode & 0o777).toBe(0o600);
    expect(readDemoLogins(dir)).toEqual([
      { role: 'EMPLOYEE', email: 'staff@wms.local', password: 'Gen-Pass-123' },
      { role: 'CUSTOMER', email: 'demo@wms.local', password: 'Gen-Pass-456' },
    ]);
  });

  it('narrows a wider mode on an existing file and writes nothing for no logins', () => {
    const dir = tempDir();
    writeFileSync(demoLoginsPath(dir), '{}', { mode: 0o644 });
    saveDemoLogins(dir, [{ role: 'EMPLOYEE', email: 'staff@wms.local', password: 'x-1234567' }]);
    expect(statSync(demoLoginsPath(dir)).mode & 0o777).toBe(0o600);
    const other = tempDir();
    saveDemoLogins(other, []);
    expect(readDemoLogins(other)).toEqual([]);
  });

  it('a missing, broken or foreign file reads as no logins', () => {
    const dir = tempDir();
    expect(readDemoLogins(dir)).toEqual([]);
    writeFileSync(demoLoginsPath(dir), '{not json');
    expect(readDemoLogins(dir)).toEqual([]);
    writeFileSync(demoLoginsPath(dir), JSON.stringify({ logins: [{ role: 'ADMIN', email: 'x', password: 1 }] }));
    expect(readDemoLogins(dir)).toEqual([]);
    expect(readFileSync(demoLoginsPath(dir), 'utf8')).toContain('ADMIN');
  });
});
