import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';

function qpBytes(text: string): Buffer {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const ch = soft[i]!;
    if (ch === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeQuotedPrintable(text: string): string {
  return qpBytes(text).toString('utf8');
}

/** RFC 2047 header: adjacent encoded words are joined as bytes first (a character may span two words). */
function decodeHeader(value: string): string {
  return value.replace(/(=\?utf-8\?[bq]\?[^?]*\?=\s*)+/gi, (run) => {
    const parts = [...run.matchAll(/=\?utf-8\?([bq])\?([^?]*)\?=/gi)].map(([, enc, data]) =>
      enc!.toLowerCase() === 'b' ? Buffer.from(data!, 'base64') : qpBytes(data!.replace(/_/g, ' ')),
    );
    return Buffer.concat(parts).toString('utf8');
  });
}

export interface TMail {
  file: string;
  subject: string;
  body: string;
}

/** Parse one .eml the server's outbox mailer wrote (single text part, QP or base64). */
export function parseEml(raw: string): Omit<TMail, 'file'> {
  const [folded = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const head = folded.replace(/\r?\n[ \t]+/g, ' ');
  const body = rest.join('\n\n');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : body;
  return { subject: decodeHeader(header('Subject')), body: text };
}

/** Wait for the newest mail to an address in DATA_DIR/outbox (the server writes .eml files without SMTP). */
export async function readMail(to: string, after = 0): Promise<TMail> {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  const safe = to.replace(/[^a-zA-Z0-9@._-]/g, '_');
  let found: string | undefined;
  await expect
    .poll(
      () => {
        if (!existsSync(outbox)) return undefined;
        const files = readdirSync(outbox)
          .filter((f) => f.endsWith(`-${safe}.eml`) || f.endsWith(`-${safe}.password.eml`))
          .map((f) => path.join(outbox, f))
          .filter((f) => readFileSync(f).length > 0)
          .sort();
        found = files.slice(after).at(-1);
        return found;
      },
      { timeout: 15_000, message: `mail to ${to}` },
    )
    .toBeTruthy();
  return { file: found!, ...parseEml(readFileSync(found!, 'utf8')) };
}

/** How many mails an address has received so far. */
export function mailCount(to: string): number {
  const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  if (!existsSync(outbox)) return 0;
  const safe = to.replace(/[^a-zA-Z0-9@._-]/g, '_');
  return readdirSync(outbox).filter((f) => f.endsWith(`-${safe}.eml`) || f.endsWith(`-${safe}.password.eml`)).length;
}
