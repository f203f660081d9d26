import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as fontkitModule from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';
import { receiveUnits } from './work';

/**
 * The statement PDF prints Chinese and Japanese (issue #35): the seller's name and the lines in the user's language,
 * drawn with the embedded CJK font — read back from the PDF's text with pdftotext, as a person's PDF reader would.
 */

let ctx: TTestContext;
let staff: string;
let w: TWorld;
const NAME = '台灣好物股份有限公司 テスト商事';

beforeAll(async () => {
  ctx = await createTestContext({ USAGE_ISSUE_OPEN_MONTH: '1' });
  staff = (await ctx.newEmployee()).token;
  w = await outboundWorld(ctx, { name: NAME });
  const card = await ctx.api.usageRoutes.crmCreateRateCard({
    body: {
      customer_id: w.customerId,
      valid_from: '2020-01-01',
      rates: { receiving_receipt: '30', receiving_unit: '1.5' },
    },
    token: staff,
  });
  expect(card.statusCode, card.body).toBe(201);
  await receiveUnits(ctx, w, 4, 4);
});
afterAll(() => ctx?.close());

const fontkit = (fontkitModule as unknown as { default?: typeof fontkitModule }).default ?? fontkitModule;

const dir = mkdtempSync(path.join(tmpdir(), 'statement-pdf-'));
const textOf = (bytes: Buffer, name: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  // A viewer can draw it: the CJK font is embedded and poppler renders the page without complaint (a broken embedded
  // font file makes it say "Embedded font file may be invalid").
  const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
  expect(fonts).toMatch(/DroidSansFallback\S*\s+CID TrueType\s+Identity-H\s+yes/);
  const render = spawnSync('pdftoppm', ['-r', '30', '-png', file, path.join(dir, name)], { encoding: 'utf8' });
  expect(render.status).toBe(0);
  expect(render.stderr).toBe('');
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

/**
 * The embedded CJK font's glyphs, read back with fontkit: its drawn glyphs only (a subset), and each one an outline —
 * a subset with its glyph offsets wrong (as @pdf-lib/fontkit writes them unmended) reads as glyphs without outline.
 */
async function embeddedGlyphs(bytes: Buffer) {
  const pdf = await PDFDocument.load(bytes);
  // The font descriptors' TrueType font files (FontFile2).
  const files = pdf.context
    .enumerateIndirectObjects()
    .map(([, o]) => o)
    .filter((o): o is PDFDict => o instanceof PDFDict && o.has(PDFName.of('FontFile2')))
    .map((d) => pdf.context.lookup(d.get(PDFName.of('FontFile2'))) as PDFRawStream);
  expect(files).toHaveLength(1);
  const font = fontkit.create(Buffer.from(decodePDFRawStream(files[0]!).decode())) as unknown as {
    numGlyphs: number;
    getGlyph(gid: number): { path: { commands: unknown[] } };
  };
  const blank = Array.from({ length: font.numGlyphs - 1 }, (_, i) => i + 1).filter(
    (gid) => font.getGlyph(gid).path.commands.length === 0,
  );
  return { glyphs: font.numGlyphs, blank, size: bytes.length };
}

describe(`the statement PDF in Chinese and Japanese (${TEST_ENGINE})`, () => {
  it('prints the seller name and the lines in the user language (zh-TW, ja), and in English', async () => {
    const month = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
    let issued = await ctx.api.usageRoutes.crmIssueStatement({
      body: { customer_id: w.customerId, month },
      token: staff,
    });
    for (let i = 0; i < 50 && issued.statusCode === 201 && issued.json().lines.length < 2; i++) {
      // The receipt's charges are written by the event's delivery just after its commit: void and issue again.
      await ctx.api.usageRoutes.crmVoidStatement({
        params: { id: issued.json().id },
        body: { reason: 'wait' },
        token: staff,
      });
      ctx.deps.jobs.kick('outbox.deliver');
      await new Promise((r) => setTimeout(r, 200));
      issued = await ctx.api.usageRoutes.crmIssueStatement({
        body: { customer_id: w.customerId, month },
        token: staff,
      });
    }
    expect(issued.statusCode, issued.body).toBe(201);
    const s = issued.json();
    expect(s.lines.map((l) => l.kind)).toEqual(['receiving_receipt', 'receiving_unit']);
    const get = (lang: 'zh-TW' | 'ja' | 'en') =>
      ctx.api.usageRoutes.statementFile({
        params: { id: s.id },
        query: { format: 'pdf' },
        token: w.token,
        lang,
      });

    const zh = await get('zh-TW');
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toContain('application/pdf');
    const zhText = textOf(Buffer.from(zh.rawPayload), 'zh.pdf');
    expect(zhText).toContain(NAME);
    expect(zhText).toContain('倉儲服務對帳單');
    expect(zhText).toContain('入庫費（每張入庫單）');
    expect(zhText).toContain('入庫費（每件）');
    expect(zhText).toContain(s.number);
    expect(zhText).toContain('已開立');

    // The font is a subset of what is drawn (a few KB, not the whole 2.3 MB font), every glyph of it an outline.
    const zhFont = await embeddedGlyphs(Buffer.from(zh.rawPayload));
    expect(zhFont.glyphs).toBeGreaterThan(20);
    expect(zhFont.glyphs).toBeLessThan(200);
    expect(zhFont.blank).toEqual([]);
    expect(zhFont.size).toBeLessThan(100_000);

    const jaText = textOf(Buffer.from((await get('ja')).rawPayload), 'ja.pdf');
    expect(jaText).toContain(NAME);
    expect(jaText).toContain('入庫料（1点ごと）');
    expect(jaText).toContain('倉庫サービス請求書');

    expect(zhText).toContain(`${s.number}`);
    const enText = textOf(Buffer.from((await get('en')).rawPayload), 'en.pdf');
    expect(enText).toContain(NAME);
    expect(enText).toContain('Receiving per unit');
    expect(enText).toContain(s.total);
  });
});
