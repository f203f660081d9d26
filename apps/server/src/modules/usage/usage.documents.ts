import type { TLanguage, TStatement, TUsageEvent } from '@wms/contracts';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';

/**
 * An issued statement as files: a PDF (A4, drawn with pdf-lib as the consignment labels are) and an .xlsx of every
 * event (the project's writeWorkbook). The PDF uses a standard font, so it is written in English with the kinds'
 * codes; the xlsx has headers in the user's language.
 */

const KIND_EN: Record<string, string> = {
  receiving_receipt: 'Receiving per receipt',
  receiving_unit: 'Receiving per unit',
  pick_order: 'Pick & pack per order',
  pick_extra_unit: 'Pick & pack per extra unit',
  storage_location_day: 'Storage per location-day',
  storage_cbm_day: 'Storage per m3-day (qty in litres)',
  return_receipt: 'Returns per return',
  return_unit: 'Returns per unit',
};

/** Only what the standard font can draw (WinAnsi): anything else becomes '?'. */
const ascii = (v: string) => v.replace(/[^\x20-\x7e]/g, '?');

export async function statementPdf(s: TStatement): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Statement ${s.number}`);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595.28, 841.89]);
  let y = 790;
  const text = (v: string, x: number, size = 10, f = font) => page.drawText(ascii(v), { x, y, size, font: f });
  const right = (v: string, x: number, size = 10, f = font) =>
    page.drawText(ascii(v), { x: x - f.widthOfTextAtSize(ascii(v), size), y, size, font: f });
  text('Statement of warehouse services', 50, 16, bold);
  y -= 26;
  text(`Number: ${s.number}`, 50);
  right(`Month: ${s.month}`, 545);
  y -= 14;
  text(`Seller: ${s.customer_name}`, 50);
  right(`Issued: ${s.issued_at.slice(0, 10)}`, 545);
  y -= 14;
  text(`Status: ${s.status}${s.status === 'void' ? ` (${s.void_reason})` : ''}`, 50);
  y -= 28;
  for (const [label, x, r] of [
    ['Charge', 50, false],
    ['Events', 360, true],
    ['Quantity', 440, true],
    ['Amount (TWD)', 545, true],
  ] as const)
    r ? right(label, x, 10, bold) : text(label, x, 10, bold);
  y -= 16;
  for (const l of s.lines) {
    text(KIND_EN[l.kind] ?? l.kind, 50);
    right(String(l.events), 360);
    right(String(l.quantity), 440);
    right(l.amount, 545);
    y -= 14;
  }
  y -= 10;
  const total = (label: string, v: string, f = font) => {
    text(label, 300, 10, f);
    right(v, 545, 10, f);
    y -= 14;
  };
  total('Subtotal', s.subtotal);
  total('Minimum monthly fee (top-up)', s.minimum_fee);
  total(`Business tax ${Number(s.tax_rate) * 100} %`, s.tax);
  total('Total (TWD)', s.total, bold);
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
