import { Readable } from 'node:stream';
import {
  errorMessage,
  fieldLabel,
  IMPORT_FIELDS,
  IMPORT_REQUIRED_FIELDS,
  LANGUAGES,
  MAX_LINE_QUANTITY,
  ORDER_CATEGORIES,
  ORDER_CHANNELS,
  ORDER_TEXT_LIMITS,
  ORDER_VALUE_LABELS,
  PACKAGE_SIZE_CM,
  PACKAGE_SIZES,
  type TErrorCode,
  TIME_SLOTS,
  type TImportField,
  type TImportMapping,
  type TImportRowError,
  type TLanguage,
} from '@wms/contracts';
import ExcelJS from 'exceljs';
import { AppError } from '../../platform/errors';

/**
 * Reading order files: the first sheet of an .xlsx (streamed with exceljs' WorkbookReader, so a 100,000-row file
 * never sits in memory as a workbook) or a CSV (UTF-8, or Big5 as Taiwanese Excel saves it); header normalisation;
 * column mapping (our template in any language, a seller's saved layout, Shopee Taiwan's export); and parsing of
 * cell values into order fields with the spec's abnormal codes. No database access here.
 */

export type TCell = string | number | boolean | Date | null;
export interface TSheetRow {
  /** The row number the user sees in Excel (1-based). */
  row: number;
  /** 0-based cells. */
  cells: TCell[];
}

const invalidFile = () => new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });

/** What kind of file this is, from its first bytes; null for anything we cannot read (old .xls, binaries). */
export function fileKind(content: Buffer): 'xlsx' | 'csv' | null {
  if (content.length === 0) return null;
  if (content[0] === 0x50 && content[1] === 0x4b && content[2] === 0x03 && content[3] === 0x04) return 'xlsx';
  if (content.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return null;
  if (content.subarray(0, 4096).includes(0)) return null;
  return 'csv';
}

function plainCell(value: ExcelJS.CellValue | undefined): TCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return plainCell(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text);
    if ('error' in value) return null;
  }
  return String(value);
}

async function* readXlsx(content: Buffer): AsyncGenerator<TSheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(content), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: TCell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
      yield { row: row.number, cells };
    }
    return; // the first sheet only
  }
}

/** Decode a CSV: UTF-8 (BOM dropped), else Big5, which is how Excel in Taiwan saves "CSV". */
export function decodeCsv(content: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    text = new TextDecoder('big5').decode(content);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). Yields physical row numbers. */
export function* parseCsv(text: string): Generator<TSheetRow> {
  let row = 1;
  let start = 1;
  let field = '';
  let fields: string[] = [];
  let quoted = false;
  let i = 0;
  const n = text.length;
  const emit = () => {
    fields.push(field);
    const out = { row: start, cells: fields };
    fields = [];
    field = '';
    return out;
  };
  while (i < n) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (ch === '\n') row++;
        field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      const rec = emit();
      if (rec.cells.some((c) => c !== '')) yield rec;
      row++;
      start = row;
    } else field += ch;
    i++;
  }
  if (field !== '' || fields.length > 0) {
    const rec = emit();
    if (rec.cells.some((c) => c !== '')) yield rec;
  }
}

/** Rows of the first sheet of an .xlsx or of a CSV; an unreadable file is IMPORT_FILE_INVALID. */
export async function* readSheet(content: Buffer): AsyncGenerator<TSheetRow> {
  const kind = fileKind(content);
  if (!kind) throw invalidFile();
  if (kind === 'csv') {
    for (const r of parseCsv(decodeCsv(content)))
      yield { row: r.row, cells: r.cells.map((c) => (c === '' ? null : c)) };
    return;
  }
  try {
    yield* readXlsx(content);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalidFile();
  }
}

// ---- headers and column mapping ----

/** A header as shown and saved: Unicode-normalised (full-width → ASCII), every run of whitespace (line breaks too) one space. */
export function headerText(cell: TCell): string {
  if (cell === null) return '';
  return String(cell).normalize('NFKC').replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();
}

/** The key two headers are compared by: no whitespace at all, no required-marks, case-insensitive. */
export function headerKey(header: string): string {
  return headerText(header).replace(/[\s*]/g, '').toLowerCase();
}

/** Our template's headers: the field key and its label in every language. */
export function standardHeaders(field: TImportField): string[] {
  return [field, ...LANGUAGES.map((l) => fieldLabel(field, l))];
}

/**
 * Headers of Shopee Taiwan's order export (one row per item, order fields repeated; 商品選項貨號 may hold
 * placeholders, so the main product SKU is the fallback).
 */
export const SHOPEE_TW_HEADERS: Partial<Record<TImportField, string[]>> = {
  platform_order_number: ['訂單編號'],
  consignment_number: ['包裹查詢號碼'],
  recipient_name: ['收件者姓名'],
  recipient_phone: ['收件者電話', '電話號碼'],
  recipient_postcode: ['郵遞區號'],
  recipient_address: ['收件地址'],
  shipping_remark: ['買家備註'],
  logistics_provider: ['寄送方式'],
  total_amount: ['買家總支付金額', '訂單總金額'],
  product: ['商品選項貨號', '主商品貨號'],
  quantity: ['數量'],
  unit_price: ['商品活動價格', '商品原價'],
};

/** A mapping guessed from a file's headers: our template in any language first, then known platform exports. */
export function suggestMapping(headers: string[]): TImportMapping {
  const present = new Map<string, string>();
  for (const h of headers) if (h && !present.has(headerKey(h))) present.set(headerKey(h), h);
  const mapping: TImportMapping = {};
  for (const field of IMPORT_FIELDS) {
    const names = [...standardHeaders(field), ...(SHOPEE_TW_HEADERS[field] ?? [])];
    const found: string[] = [];
    for (const n of names) {
      const h = present.get(headerKey(n));
      if (h && !found.includes(h)) found.push(h);
    }
    if (found.length) mapping[field] = found;
  }
  return mapping;
}

export type TColumns = Partial<Record<TImportField, number[]>>;

/** Column indexes of every mapped field (in fallback order), and the required fields no column provides. */
export function resolveColumns(
  headers: string[],
  mapping: TImportMapping,
): { columns: TColumns; missing: TImportField[] } {
  const byKey = new Map<string, number[]>();
  headers.forEach((h, i) => {
    const k = headerKey(h);
    if (k) byKey.set(k, [...(byKey.get(k) ?? []), i]);
  });
  const columns: TColumns = {};
  for (const field of IMPORT_FIELDS) {
    const idx: number[] = [];
    for (const name of mapping[field] ?? []) for (const i of byKey.get(headerKey(name)) ?? []) idx.push(i);
    if (idx.length) columns[field] = idx;
  }
  const missing = IMPORT_REQUIRED_FIELDS.filter((f) => !columns[f]);
  return { columns, missing };
}

// ---- cell values ----

/** SKU cells that platforms fill with a placeholder instead of a SKU. */
const SKU_PLACEHOLDERS = new Set(['-', '--', 'null', 'nan', 'none', 'n/a', 'na', '見選項', '无', '無']);

function text(cell: TCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return isoDay(cell);
  return String(cell).replaceAll('\u0000', '').trim();
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function validDay(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return isoDay(t);
}

/** A date cell: an Excel date, a serial number, `YYYY-MM-DD`, `YYYY/M/D`, `YYYYMMDD` (a time after it is ignored). */
export function parseDay(cell: TCell): string | null | undefined {
  if (cell === null || cell === '') return null;
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : isoDay(cell);
  if (typeof cell === 'number') {
    if (cell > 20000 && cell < 80000) return isoDay(new Date(Date.UTC(1899, 11, 30) + Math.floor(cell) * 86400000));
    const m = /^(\d{4})(\d{2})(\d{2})$/.exec(String(cell));
    return m ? (validDay(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined) : undefined;
  }
  const s = String(cell).trim();
  const m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T].*)?$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return undefined;
  return validDay(Number(m[1]), Number(m[2]), Number(m[3])) ?? undefined;
}

const TRUE_WORDS = new Set(['y', 'yes', 'true', '1', '是', 'はい', 'o', 'v', '✓']);
const FALSE_WORDS = new Set(['n', 'no', 'false', '0', '否', 'いいえ', 'x']);
const COD_WORDS = new Set(['cod', '貨到付款', '代收', '代收貨款', '代引', '代金引換', '着払い']);

export function parseBool(cell: TCell): boolean | null | undefined {
  if (cell === null || cell === '') return null;
  if (typeof cell === 'boolean') return cell;
  const s = String(cell).trim().toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  return undefined;
}

/**
 * Collect on delivery: yes/no words, or a payment method column (Shopee's 付款方式): 貨到付款 and the like mean yes,
 * any other payment method means no.
 */
export function parseCod(cell: TCell): boolean {
  const b = parseBool(cell);
  if (b !== undefined) return b ?? false;
  return COD_WORDS.has(String(cell).trim().toLowerCase());
}

/** An amount: a number or text like `NT$1,280.5`; at most 2 decimals, never negative. */
export function parseAmount(cell: TCell): string | null | undefined {
  if (cell === null || cell === '') return null;
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell) || cell < 0 || cell >= 1e12) return undefined;
    const fixed = cell.toFixed(2);
    return Number(fixed) === cell || Math.abs(Number(fixed) - cell) < 1e-9 ? fixed.replace(/\.00$/, '') : undefined;
  }
  const s = String(cell)
    .trim()
    .replace(/^(NT\$|\$|NTD|TWD)\s*/i, '')
    .replace(/,/g, '');
  return /^\d{1,12}(\.\d{1,2})?$/.test(s) ? s : undefined;
}

/** A whole number in [min, max]; undefined when it is not one. */
export function parseWhole(cell: TCell, min: number, max: number): number | null | undefined {
  if (cell === null || cell === '') return null;
  const n = typeof cell === 'number' ? cell : /^\s*-?\d+(\.0+)?\s*$/.test(String(cell)) ? Number(cell) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) return undefined;
  return n;
}

/** Key of an enumeration from its key or its label in any language. */
function parseEnum<K extends string>(cell: TCell, keys: readonly K[], labels: Record<K, Record<string, string>>) {
  const k = headerKey(text(cell));
  if (!k) return null;
  for (const key of keys) {
    if (headerKey(key) === k) return key;
    if (Object.values(labels[key]).some((l) => headerKey(l) === k)) return key;
  }
  return undefined;
}

const SLOT_CODES: Record<string, (typeof TIME_SLOTS)[number]> = {
  '1': 'morning',
  '01': 'morning',
  '2': 'afternoon',
  '02': 'afternoon',
  '4': 'any',
  '04': 'any',
};

/** Volume as a package size code: `0001`…`0004`, `1`…`4`, or the size `60`, `90cm`, … */
export function parseVolume(cell: TCell): string | null | undefined {
  const s = text(cell)
    .toLowerCase()
    .replace(/\s*cm$/, '');
  if (!s) return null;
  if ((PACKAGE_SIZES as readonly string[]).includes(s)) return s;
  if (/^[1-4]$/.test(s)) return `000${s}`;
  const bySize = PACKAGE_SIZES.find((code) => String(PACKAGE_SIZE_CM[code]) === s);
  return bySize ?? undefined;
}

/** A phone typed into a number cell lost its leading 0 (912345678 → 0912345678). */
function phoneText(cell: TCell): string {
  if (typeof cell === 'number' && Number.isSafeInteger(cell) && cell > 0) {
    const s = String(cell);
    return s.length >= 8 && s.length <= 9 ? `0${s}` : s;
  }
  return text(cell);
}

// ---- one row → fields ----

export interface TRowIssue {
  code: TErrorCode;
  field: TImportField | string | null;
  value: string | null;
}

/** Row errors kept on a refused file (the count says how many there were in all). */
export const MAX_REPORTED_ERRORS = 1000;

/**
 * Refuse a whole file: IMPORT_REJECTED with the number of problems and the first of them in row order, each with its
 * message in the uploader's language and the offending value (e.g. the SKU nobody knows).
 */
export function rejectRows(issues: Array<TRowIssue & { row: number }>, lang: TLanguage): never {
  const sorted = [...issues].sort((a, b) => a.row - b.row);
  const errors: TImportRowError[] = sorted.slice(0, MAX_REPORTED_ERRORS).map((i) => {
    const message = errorMessage(i.code, lang, { field: i.field ?? '' });
    return { row: i.row, field: i.field, code: i.code, message: i.value ? `${message}: ${i.value}` : message };
  });
  throw new AppError('IMPORT_REJECTED', { count: issues.length, errors });
}

/** Order-level values of a row, before codes are resolved into ids. */
export interface TParsedHeader {
  platform_order_number: string;
  third_party_number: string | null;
  consignment_number: string | null;
  shipping_date: string | null;
  category: (typeof ORDER_CATEGORIES)[number] | null;
  channel: (typeof ORDER_CHANNELS)[number] | null;
  platform: string | null;
  is_cross_border: boolean;
  recipient_name: string;
  recipient_phone: string;
  recipient_mobile: string;
  recipient_postcode: string;
  recipient_address: string;
  sender_name: string;
  sender_phone: string;
  sender_postcode: string;
  sender_address: string;
  shipping_remark: string;
  warehouse: string | null;
  arrival_date: string | null;
  arrival_time_slot: (typeof TIME_SLOTS)[number] | null;
  logistics_provider: string | null;
  cod: boolean;
  cod_amount: string | null;
  total_amount: string | null;
  piece_count: number;
  volume: string | null;
}

export interface TParsedLine {
  /** Candidate product codes in fallback order (placeholders dropped). */
  products: string[];
  quantity: number | null;
  unit_price: string | null;
}

/** Reads a row's cells through the resolved columns. */
export class RowReader {
  constructor(private readonly columns: TColumns) {}

  /** The first non-empty cell of the field's columns. */
  cell(cells: TCell[], field: TImportField): TCell {
    for (const i of this.columns[field] ?? []) {
      const c = cells[i];
      if (c !== null && c !== undefined && text(c) !== '') return c;
    }
    return null;
  }

  /** The grouping key of the row: its platform order number. */
  orderKey(cells: TCell[]): string {
    return text(this.cell(cells, 'platform_order_number'));
  }

  line(cells: TCell[], issues: TRowIssue[]): TParsedLine {
    const products: string[] = [];
    for (const i of this.columns.product ?? []) {
      const v = text(cells[i] ?? null);
      if (v && !SKU_PLACEHOLDERS.has(v.toLowerCase()) && !products.includes(v)) products.push(v);
    }
    if (products.length === 0) issues.push({ code: 'REQUIRED_FIELD', field: 'product', value: null });
    const qCell = this.cell(cells, 'quantity');
    const quantity = parseWhole(qCell, 1, MAX_LINE_QUANTITY);
    if (quantity === null) issues.push({ code: 'REQUIRED_FIELD', field: 'quantity', value: null });
    else if (quantity === undefined) issues.push({ code: 'ABNORMAL_QUANTITY', field: 'quantity', value: text(qCell) });
    const pCell = this.cell(cells, 'unit_price');
    const unitPrice = parseAmount(pCell);
    if (unitPrice === undefined) issues.push({ code: 'INVALID_FIELD', field: 'unit_price', value: text(pCell) });
    return { products, quantity: quantity ?? null, unit_price: unitPrice ?? null };
  }

  header(cells: TCell[], issues: TRowIssue[]): TParsedHeader {
    const str = (
      field: keyof typeof ORDER_TEXT_LIMITS | 'consignment_number' | 'platform' | 'warehouse' | 'logistics_provider',
    ) => {
      const v =
        field.endsWith('phone') || field.endsWith('mobile')
          ? phoneText(this.cell(cells, field))
          : text(this.cell(cells, field));
      const max = field in ORDER_TEXT_LIMITS ? ORDER_TEXT_LIMITS[field as keyof typeof ORDER_TEXT_LIMITS] : 100;
      if (v.length > max) issues.push({ code: 'INVALID_FIELD', field, value: `${v.slice(0, 20)}…` });
      return v.slice(0, max);
    };
    const day = (field: 'shipping_date' | 'arrival_date') => {
      const c = this.cell(cells, field);
      const v = parseDay(c);
      if (v === undefined) issues.push({ code: 'INVALID_FIELD', field, value: text(c) });
      return v ?? null;
    };
    const consignment = str('consignment_number');
    if (consignment && !/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(consignment))
      issues.push({ code: 'INVALID_FIELD', field: 'consignment_number', value: consignment });

    const category = parseEnum(this.cell(cells, 'category'), ORDER_CATEGORIES, ORDER_VALUE_LABELS.category);
    if (category === undefined)
      issues.push({ code: 'INVALID_FIELD', field: 'category', value: text(this.cell(cells, 'category')) });
    const channel = parseEnum(this.cell(cells, 'channel'), ORDER_CHANNELS, ORDER_VALUE_LABELS.channel);
    if (channel === undefined)
      issues.push({ code: 'CHANNEL_ABNORMAL', field: 'channel', value: text(this.cell(cells, 'channel')) });
    const slotCell = this.cell(cells, 'arrival_time_slot');
    const slot = SLOT_CODES[text(slotCell)] ?? parseEnum(slotCell, TIME_SLOTS, ORDER_VALUE_LABELS.arrival_time_slot);
    if (slot === undefined) issues.push({ code: 'INVALID_FIELD', field: 'arrival_time_slot', value: text(slotCell) });
    const crossCell = this.cell(cells, 'is_cross_border');
    const cross = parseBool(crossCell);
    if (cross === undefined) issues.push({ code: 'INVALID_FIELD', field: 'is_cross_border', value: text(crossCell) });
    const amount = (field: 'cod_amount' | 'total_amount') => {
      const c = this.cell(cells, field);
      const v = parseAmount(c);
      if (v === undefined) issues.push({ code: 'INVALID_FIELD', field, value: text(c) });
      return v ?? null;
    };
    const piecesCell = this.cell(cells, 'piece_count');
    const pieces = parseWhole(piecesCell, 1, 99);
    if (pieces === undefined) issues.push({ code: 'INVALID_FIELD', field: 'piece_count', value: text(piecesCell) });
    const volumeCell = this.cell(cells, 'volume');
    const volume = parseVolume(volumeCell);
    if (volume === undefined) issues.push({ code: 'INVALID_FIELD', field: 'volume', value: text(volumeCell) });

    return {
      platform_order_number: str('platform_order_number'),
      third_party_number: str('third_party_number') || null,
      consignment_number: consignment || null,
      shipping_date: day('shipping_date'),
      category: category ?? null,
      channel: channel ?? null,
      platform: str('platform') || null,
      is_cross_border: cross ?? false,
      recipient_name: str('recipient_name'),
      recipient_phone: str('recipient_phone'),
      recipient_mobile: str('recipient_mobile'),
      recipient_postcode: str('recipient_postcode'),
      recipient_address: str('recipient_address'),
      sender_name: str('sender_name'),
      sender_phone: str('sender_phone'),
      sender_postcode: str('sender_postcode'),
      sender_address: str('sender_address'),
      shipping_remark: str('shipping_remark'),
      warehouse: str('warehouse') || null,
      arrival_date: day('arrival_date'),
      arrival_time_slot: slot ?? null,
      logistics_provider: str('logistics_provider') || null,
      cod: parseCod(this.cell(cells, 'cod')),
      cod_amount: amount('cod_amount'),
      total_amount: amount('total_amount'),
      piece_count: pieces ?? 1,
      volume: volume ?? null,
    };
  }
}

/** Lookup key of a code or name typed in a file (platform, carrier, warehouse, product): case and spaces ignored. */
export function codeKey(s: string): string {
  return s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
}
