import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The barcodes a PDF carries, page by page, as a scanner would read them off the printed page: each page rasterised
 * by poppler's `pdftoppm` (300 dpi) and decoded by `zbarimg`. `[]` for a page with no readable symbol.
 */
export function pdfPageBarcodes(pdf: Buffer): string[][] {
  const work = mkdtempSync(path.join(tmpdir(), 'pdf-barcodes-'));
  try {
    const file = path.join(work, 'doc.pdf');
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', file, path.join(work, 'page')]);
    const pages = readdirSync(work)
      .filter((f) => f.startsWith('page') && f.endsWith('.png'))
      .sort((a, b) => Number(a.match(/(\d+)\.png$/)![1]) - Number(b.match(/(\d+)\.png$/)![1]));
    return pages.map((png) => {
      try {
        return execFileSync('zbarimg', ['--quiet', '--raw', path.join(work, png)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean);
      } catch (err) {
        // zbarimg exits 4 when it finds no symbol
        if ((err as { status?: number }).status === 4) return [];
        throw err;
      }
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
