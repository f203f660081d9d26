import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TSeedResult } from './seed.service';

type TLogin = TSeedResult['logins'][number];

/** `DATA_DIR/demo-logins.json`: the generated initial passwords of the demo accounts, readable by the owner only. */
export function demoLoginsPath(dataDir: string): string {
  return path.join(dataDir, 'demo-logins.json');
}

/**
 * Keep the logins created now so that later starts can print them again (the README's promise). Only generated
 * passwords are kept: one chosen through DEMO_*_PASSWORD is the operator's own and is never written down here.
 * Written with mode 600 (and chmod'ed, in case the file existed with wider rights).
 */
export function saveDemoLogins(dataDir: string, logins: readonly TLogin[]): void {
  if (logins.length === 0) return;
  mkdirSync(dataDir, { recursive: true });
  const file = demoLoginsPath(dataDir);
  const body = {
    note: 'Initial passwords of the demo accounts, generated at the first start. Change them after signing in.',
    logins: logins.map((l) => ({ role: l.role, email: l.email, password: l.password })),
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The kept logins, or [] when there is no file or it cannot be read as one (a broken file never stops a start). */
export function readDemoLogins(dataDir: string): TLogin[] {
  const file = demoLoginsPath(dataDir);
  if (!existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { logins?: unknown };
    if (!Array.isArray(parsed.logins)) return [];
    return parsed.logins.filter(
      (l): l is TLogin =>
        typeof l === 'object' &&
        l !== null &&
        (l.role === 'CUSTOMER' || l.role === 'EMPLOYEE') &&
        typeof l.email === 'string' &&
        (l.password === null || typeof l.password === 'string'),
    );
  } catch {
    return [];
  }
}
