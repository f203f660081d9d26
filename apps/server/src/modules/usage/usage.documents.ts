import { readFileSync } from 'node:fs';
import * as fontkitModule from '@pdf-lib/fontkit';
import type { TLanguage, TStatement, TUsageEvent } from '@wms/contracts';
import { PDFDocument, type PDFFont, StandardFonts } from 'pdf-lib';
import { type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';

/**
 * An issued statement as files: a PDF (A4, drawn with pdf-lib) and an .xlsx of every event (the project's
 * writeWorkbook). The PDF embeds a CJK font (USAGE_PDF_FONT; the glyphs drawn only, see longLoca) so seller names
 * and the lines print in Chinese or Japanese, in the user's language; without that font it falls back to a standard
 * font in English (what it cannot draw becomes '?'). The xlsx has headers in the user's language.
 */

const KIND: Record<string, Record<TLanguage, string>> = {
  receiving_receipt: { en: 'Receiving per receipt', 'zh-TW': '入庫費（每張入庫單）', ja: '入庫料（入庫伝票ごと）' },
  receiving_unit: { en: 'Receiving per unit', 'zh-TW': '入庫費（每件）', ja: '入庫料（1点ごと）' },
  pick_order: { en: 'Pick & pack per order', 'zh-TW': '揀貨包裝費（每筆訂單）', ja: 'ピッキング・梱包料（注文ごと）' },
  pick_extra_unit: {
    en: 'Pick & pack per extra unit',
    'zh-TW': '揀貨包裝費（第 2 件起每件）',
    ja: 'ピッキング・梱包料（2点目以降1点ごと）',
  },
  storage_location_day: {
    en: 'Storage per location-day',
    'zh-TW': '倉儲費（每儲位每日）',
    ja: '保管料（ロケーション・日）',
  },
  storage_cbm_day: {
    en: 'Storage per m3-day (qty in litres)',
    'zh-TW': '倉儲費（每立方米每日，數量為公升）',
    ja: '保管料（m³・日、数量はリットル）',
  },
  return_receipt: { en: 'Returns per return', 'zh-TW': '退貨處理費（每筆退貨）', ja: '返品処理料（返品ごと）' },
  return_unit: { en: 'Returns per unit', 'zh-TW': '退貨處理費（每件）', ja: '返品処理料（1点ごと）' },
};

const LABEL = {
  title: { en: 'Statement of warehouse services', 'zh-TW': '倉儲服務對帳單', ja: '倉庫サービス請求書' },
  number: { en: 'Number', 'zh-TW': '帳單編號', ja: '請求書番号' },
  month: { en: 'Month', 'zh-TW': '月份', ja: '対象月' },
  seller: { en: 'Seller', 'zh-TW': '客戶', ja: '荷主' },
  issued: { en: 'Issued', 'zh-TW': '開立日期', ja: '発行日' },
  status: { en: 'Status', 'zh-TW': '狀態', ja: '状態' },
  charge: { en: 'Charge', 'zh-TW': '計費項目', ja: '請求項目' },
  events: { en: 'Events', 'zh-TW': '筆數', ja: '件数' },
  quantity: { en: 'Quantity', 'zh-TW': '數量', ja: '数量' },
  amount: { en: 'Amount (TWD)', 'zh-TW': '金額（新台幣）', ja: '金額（TWD）' },
  subtotal: { en: 'Subtotal', 'zh-TW': '小計（未稅）', ja: '小計（税抜）' },
  minimum: { en: 'Minimum monthly fee (top-up)', 'zh-TW': '每月最低費用（補足差額）', ja: '月額最低料金（差額）' },
  tax: { en: 'Business tax', 'zh-TW': '營業稅', ja: '営業税' },
  total: { en: 'Total (TWD)', 'zh-TW': '合計（含稅，新台幣）', ja: '合計（税込、TWD）' },
} satisfies Record<string, Record<TLanguage, string>>;

const STATUS: Record<TStatement['status'], Record<TLanguage, string>> = {
  issued: { en: 'issued', 'zh-TW': '已開立', ja: '発行済み' },
  paid: { en: 'paid', 'zh-TW': '已付款', ja: '支払済み' },
  void: { en: 'void', 'zh-TW': '已作廢', ja: '無効' },
};

// A CommonJS/UMD package: its functions are on `default` under Node's ESM loader, on the namespace under a bundler.
const fontkit = (fontkitModule as unknown as { default?: typeof fontkitModule }).default ?? fontkitModule;

/** Only what the standard font can draw (WinAnsi): anything else becomes '?'. */
const ascii = (v: string) => v.replace(/[^\x20-\x7e]/g, '?');

/** The CJK font's bytes, read once per path (null when the file is not there). */
const fontFiles = new Map<string, Uint8Array | null>();
function fontBytes(path: string): Uint8Array | null {
  if (!fontFiles.has(path)) {
    try {
      fontFiles.set(path, new Uint8Array(readFileSync(path)));
    } catch {
      fontFiles.set(path, null);
    }
  }
  return fontFiles.get(path)!;
}

/**
 * @pdf-lib/fontkit's TrueType subset writes its glyph offsets (loca) in the short format — halved, without padding the
 * glyphs to an even length — so every glyph after an odd-length one is read from the wrong place and draws blank or
 * garbled (fixed upstream in fontkit 1.8, foliojs/fontkit#191; the fork predates it). Its subsets of this font are
 * given the long format (byte offsets) instead: set before the first glyph is added, the encoder keeps it.
 */
function longLoca<T>(font: T): T {
  type TSubset = { loca: { version?: number }; _addGlyph(gid: number): number };
  const f = font as unknown as { createSubset?: () => TSubset };
  const createSubset = f.createSubset?.bind(font);
  if (!createSubset) return font;
  f.createSubset = () => {
    const subset = createSubset();
    const addGlyph = subset._addGlyph.bind(subset);
    subset._addGlyph = (gid) => {
      subset.loca.version ??= 1;
      return addGlyph(gid);
    };
    return subset;
  };
  return font;
}

export interface TPdfFont {
  path: string;
  /** The face of a collection (.ttc); ignored for a single font file. */
  face: string;
}

/** The statement as a PDF in `lang` (a CJK font when `font` is there; else English in a standard font). */
export async function statementPdf(s: TStatement, lang: TLanguage = 'en', font?: TPdfFont): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const bytes = font ? fontBytes(font.path) : null;
  const latin = await doc.embedFont(StandardFonts.Helvetica);
  const latinBold = await doc.embedFont(StandardFonts.HelveticaBold);
  let cjk: PDFFont | null = null;
  const l = bytes ? lang : 'en';
  if (bytes && font) {
    // A collection (.ttc) holds several faces: pdf-lib asks fontkit for "the" font, so it is handed the chosen face.
    doc.registerFontkit({
      create: (data: Uint8Array) =>
        longLoca(fontkit.create(data, /\.(ttc|otc)$/i.test(font.path) ? font.face : undefined)),
    } as unknown as typeof fontkitModule);
    // Only the glyphs drawn are embedded (a statement of a few KB, not the whole 2.3 MB font).
    cjk = await doc.embedFont(bytes, { subset: true });
  }
  doc.setTitle(`${LABEL.title[l]} ${s.number}`);
  const page = doc.addPage([595.28, 841.89]);
  let y = 790;
  // Runs of text: Latin in Helvetica (the CJK fallback font has no Latin glyphs), the rest in the CJK font (or '?').
  const runs = (v: string, bold: boolean) =>
    (v.match(/[\x20-\x7e]+|[^\x20-\x7e]+/g) ?? []).map((run) => {
      const isLatin = /^[\x20-\x7e]/.test(run);
      const f = isLatin || !cjk ? (bold ? latinBold : latin) : cjk;
      return { text: isLatin || cjk ? run : ascii(run), font: f };
    });
  const width = (v: string, size: number, bold: boolean) =>
    runs(v, bold).reduce((w, r) => w + r.font.widthOfTextAtSize(r.text, size), 0);
  const drawAt = (v: string, x: number, size: number, bold: boolean) => {
    let at = x;
    for (const r of runs(v, bold)) {
      page.drawText(r.text, { x: at, y, size, font: r.font });
      at += r.font.widthOfTextAtSize(r.text, size);
    }
  };
  const regular = false;
  const bold = true;
  const text = (v: string, x: number, size = 10, b = regular) => drawAt(v, x, size, b);
  const right = (v: string, x: number, size = 10, b = regular) => drawAt(v, x - width(v, size, b), size, b);
  text(LABEL.title[l], 50, 16, bold);
  y -= 26;
  text(`${LABEL.number[l]}: ${s.number}`, 50);
  right(`${LABEL.month[l]}: ${s.month}`, 545);
  y -= 14;
  text(`${LABEL.seller[l]}: ${s.customer_name}`, 50);
  right(`${LABEL.issued[l]}: ${s.issued_at.slice(0, 10)}`, 545);
  y -= 14;
  text(`${LABEL.status[l]}: ${STATUS[s.status][l]}${s.status === 'void' ? ` (${s.void_reason})` : ''}`, 50);
  y -= 28;
  for (const [label, x, r] of [
    [LABEL.charge[l], 50, false],
    [LABEL.events[l], 360, true],
    [LABEL.quantity[l], 440, true],
    [LABEL.amount[l], 545, true],
  ] as const)
    r ? right(label, x, 10, bold) : text(label, x, 10, bold);
  y -= 16;
  for (const line of s.lines) {
    text(KIND[line.kind]?.[l] ?? line.kind, 50);
    right(String(line.events), 360);
    right(String(line.quantity), 440);
    right(line.amount, 545);
    y -= 14;
  }
  y -= 10;
  const total = (label: string, v: string, f = regular) => {
    text(label, 300, 10, f);
    right(v, 545, 10, f);
    y -= 14;
  };
  total(LABEL.subtotal[l], s.subtotal);
  total(LABEL.minimum[l], s.minimum_fee);
  total(`${LABEL.tax[l]} ${Number(s.tax_rate) * 100} %`, s.tax);
  total(LABEL.total[l], s.total, bold);
  return Buffer.from(await doc.save());
}

const h = (en: string, zh: string, ja: string) => ({ en, 'zh-TW': zh, ja });
const EVENT_COLUMNS: TSheetColumn[] = [
  { key: 'kind', width: 24, header: h('Charge', '計費項目', '請求項目') },
  { key: 'day', width: 12, header: h('Day', '日期', '日付') },
  { key: 'document_number', width: 22, text: true, header: h('Document', '單據', '伝票') },
  { key: 'source_type', width: 18, header: h('Document type', '單據類型', '伝票種別') },
  { key: 'quantity', width: 10, header: h('Quantity', '數量', '数量') },
  { key: 'unit_rate', width: 12, header: h('Rate', '單價', '単価') },
  { key: 'charge', width: 14, header: h('Amount', '金額', '金額') },
];

/** The statement's events, one row each, with its lines and totals on the notes sheet. */
export async function statementXlsx(s: TStatement, events: TUsageEvent[], lang: TLanguage): Promise<Buffer> {
  const rows = events.map((e) => ({
    kind: e.kind,
    day: e.day,
    document_number: e.document_number,
    source_type: e.source_type,
    quantity: e.quantity,
    unit_rate: e.unit_price,
    charge: e.amount,
  }));
  const notes = [
    `${s.number} ${s.month} ${s.customer_name} (${s.status})`,
    ...s.lines.map((l) => `${l.kind}: ${l.events} / ${l.quantity} / ${l.amount}`),
    `subtotal: ${s.subtotal}`,
    `minimum_fee: ${s.minimum_fee}`,
    `tax (${s.tax_rate}): ${s.tax}`,
    `total TWD: ${s.total}`,
  ];
  return writeWorkbook(s.number, EVENT_COLUMNS, rows, lang, notes);
}

const STATUS_TEXT: Record<TStatement['status'], ReturnType<typeof h>> = {
  issued: h('Issued', '已開立', '発行済み'),
  paid: h('Paid', '已付款', '支払済み'),
  void: h('Void', '已作廢', '無効'),
};
const STATEMENT_COLUMNS: TSheetColumn[] = [
  { key: 'month', width: 10, header: h('Month', '月份', '月') },
  { key: 'number', width: 20, text: true, header: h('Number', '帳單編號', '請求書番号') },
  { key: 'customer_name', width: 28, header: h('Seller', '客戶', '荷主') },
  { key: 'status', width: 10, header: h('Status', '狀態', '状態') },
  { key: 'subtotal', width: 14, header: h('Subtotal', '小計（未稅）', '小計（税抜）') },
  { key: 'minimum_fee', width: 14, header: h('Minimum fee top-up', '每月最低費用補差', '最低料金差額') },
  { key: 'tax', width: 12, header: h('Tax', '營業稅', '税額') },
  { key: 'total', width: 14, header: h('Total', '合計（含稅）', '合計（税込）') },
  { key: 'issued_at', width: 20, header: h('Issued at', '開立時間', '発行日時') },
  { key: 'paid_at', width: 20, header: h('Paid at', '付款時間', '支払日時') },
  { key: 'note', width: 30, header: h('Payment / void reason', '付款備註／作廢原因', '支払メモ／無効理由') },
];

/** The CRM's statements list as xlsx: one row each, amounts as numbers. */
export async function statementsXlsx(list: TStatement[], lang: TLanguage): Promise<Buffer> {
  const rows = list.map((s) => ({
    month: s.month,
    number: s.number,
    customer_name: s.customer_name,
    status: STATUS_TEXT[s.status][lang],
    subtotal: Number(s.subtotal),
    minimum_fee: Number(s.minimum_fee),
    tax: Number(s.tax),
    total: Number(s.total),
    issued_at: new Date(s.issued_at),
    paid_at: s.paid_at ? new Date(s.paid_at) : null,
    note: s.status === 'void' ? s.void_reason : s.payment_note,
  }));
  return writeWorkbook('statements', STATEMENT_COLUMNS, rows, lang);
}
