import { PassThrough, Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { fieldLabel, LANGUAGES, type TLanguage } from '@wms/contracts';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { type TCell, wordKey } from './cells';
import { AppError } from './errors';
import { isPriceField, pricesHidden } from './request-grants';
import { type TZipData, type TZipLimits, verifyZip, zipEntries } from './zip';

/**
 * The one spreadsheet reader and writer of the app. Reading streams: the first sheet of an .xlsx through exceljs'
 * WorkbookReader (a 100,000-row file never sits in memory as a workbook), after the archive passed `verifyZip`; or a
 * CSV (UTF-8, or Big5 as Excel in Taiwan saves it). Writing: one sheet with headers in the user's language.
 */

export interface TSheetRow {
  /** The row number the user sees in Excel (1-based). */
  row: number;
  /** 0-based cells. */
  cells: TCell[];
}

/** A column of an export, template or import: `key` is the API field, the header is its label in the user's language. */
export interface TSheetColumn {
  key: string;
  width?: number;
  required?: boolean;
  /** What the column accepts, shown on the template's notes sheet. */
  note?: string;
  /** A text column (codes, barcodes): Excel must not turn `0360…` into a number and drop the zero. */
  text?: boolean;
  /** The header in each language, when the key is no field label (FIELD_LABELS). */
  header?: Record<TLanguage, string>;
}

export type TFileKind = 'xlsx' | 'csv';
export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const invalidFile = () => new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });

// ---- reading ----

/** What kind of file this is, from its first bytes; null for anything we cannot read (old .xls, binaries). */
export function fileKind(content: Buffer): TFileKind | null {
  if (content.length === 0) return null;
  if (content[0] === 0x50 && content[1] === 0x4b && content[2] === 0x03 && content[3] === 0x04) return 'xlsx';
  if (content.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return null;
  if (content.subarray(0, 4096).includes(0)) return null;
  return 'csv';
}

/** A read cell: text trimmed (empty text is null), formulas by their result, rich text joined, errors null. */
function plainCell(value: ExcelJS.CellValue | undefined): TCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.replaceAll('\u0000', '').trim() || null;
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value) return plainCell(value.richText.map((r) => r.text).join(''));
    if ('result' in value) return plainCell(value.result as ExcelJS.CellValue);
    if ('text' in value) return plainCell(String(value.text));
    if ('error' in value) return null;
  }
  return plainCell(String(value));
}

/**
 * The parts of exceljs' streaming workbook reader that read one part each. Its own walk over the archive (unzipper's
 * Parse stream fed through exceljs' iterateStream) loses a part now and then — measured: 4 of 3,000 reads of one small
 * file failed with "Cannot read properties of undefined (reading 'sheets')", the workbook part read as empty — so the
 * archive is walked here (the entries `verifyZip` checked) and each part handed to the reader as a stream of its own.
 */
interface TWorkbookParts {
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseStyles(entry: Readable): Promise<void>;
  _parseWorksheet(iterator: AsyncIterable<unknown>, sheetNo: string): Generator<{ value: AsyncIterable<ExcelJS.Row> }>;
  workbookRels?: Array<{ Id: string; Target: string }>;
  model?: { sheets?: Array<{ rId: string }> };
}

/**
 * A part's content as text chunks: inflated as it is read, and decoded as a stream (exceljs decodes each chunk on its
 * own, which would turn a character split between two chunks into U+FFFD).
 */
function partStream(part: TZipData): Readable {
  const stored = Readable.from([part.data], { objectMode: false });
  const bytes = part.method === 0 ? stored : stored.pipe(createInflateRaw());
  if (bytes !== stored) stored.on('error', (err) => bytes.destroy(err));
  return bytes.setEncoding('utf8');
}

async function* readXlsx(content: Buffer): AsyncGenerator<TSheetRow> {
  const parts = new Map(zipEntries(content).map((e) => [e.name, e]));
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  }) as unknown as TWorkbookParts;
  const part = (name: string) => {
    const p = parts.get(name);
    return p ? partStream(p) : null;
  };
  const rels = part('xl/_rels/workbook.xml.rels');
  if (rels) await reader._parseRels(rels);
  const workbook = part('xl/workbook.xml');
  if (!workbook) throw invalidFile();
  await reader._parseWorkbook(workbook);
  const strings = part('xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings));
  const styles = part('xl/styles.xml');
  if (styles) await reader._parseStyles(styles);
  // The first sheet of the workbook (its order, not the archive's); else the first worksheet part in the archive.
  const first = reader.model?.sheets?.[0];
  const target = first && reader.workbookRels?.find((r) => r.Id === first.rId)?.Target.replace(/^\/?(xl\/)?/, 'xl/');
  const name =
    (target && parts.has(target) ? target : undefined) ??
    [...parts.keys()].find((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n));
  if (!name) throw invalidFile();
  const sheetNo = /sheet(\d+)\.xml$/.exec(name)?.[1] ?? '1';
  for (const { value: sheet } of reader._parseWorksheet(partStream(parts.get(name)!), sheetNo)) {
    for await (const row of sheet) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: TCell[] = [];
      for (let i = 1; i < values.length; i++) cells.push(plainCell(values[i]));
      yield { row: row.number, cells };
    }
    return;
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
export function* parseCsv(text: string): Generator<{ row: number; cells: string[] }> {
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

/**
 * Rows of the first sheet of an .xlsx, or of a CSV, as they stream. An .xlsx passes `verifyZip` (entry count and
 * inflated sizes within `limits`) before anything parses it; an unreadable file is IMPORT_FILE_INVALID.
 */
export async function* readSheet(content: Buffer, limits: TZipLimits): AsyncGenerator<TSheetRow> {
  const kind = fileKind(content);
  if (!kind) throw invalidFile();
  if (kind === 'csv') {
    for (const r of parseCsv(decodeCsv(content))) yield { row: r.row, cells: r.cells.map((c) => plainCell(c)) };
    return;
  }
  await verifyZip(content, limits);
  try {
    yield* readXlsx(content);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw invalidFile();
  }
}

// ---- headers ----

/** A header as shown and saved: Unicode-normalised (full-width → ASCII), every run of whitespace (line breaks too) one space. */
export function headerText(cell: TCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  const s = cell instanceof Date ? cell.toISOString().slice(0, 10) : String(cell);
  return s.normalize('NFKC').replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();
}

/** The headers a field is known by in our files: its key and its label in every language (required-marks ignored). */
export function columnNames(key: string): string[] {
  return [key, ...LANGUAGES.map((l) => fieldLabel(key, l))];
}

/**
 * Match a header row to fields: for each field, the columns whose header is one of its names (compared by `wordKey`:
 * line breaks, spaces, full-width letters, case and `*` do not matter), in the order of the names (fallbacks); and
 * the required fields no column provides.
 */
export function matchColumns<K extends string>(
  headers: string[],
  names: Partial<Record<K, readonly string[]>>,
  required: readonly K[],
): { columns: Partial<Record<K, number[]>>; missing: K[] } {
  const byKey = new Map<string, number[]>();
  headers.forEach((h, i) => {
    const k = wordKey(h);
    if (k) byKey.set(k, [...(byKey.get(k) ?? []), i]);
  });
  const columns: Partial<Record<K, number[]>> = {};
  for (const [field, list] of Object.entries(names) as Array<[K, readonly string[]]>) {
    const idx: number[] = [];
    for (const name of list) for (const i of byKey.get(wordKey(name)) ?? []) if (!idx.includes(i)) idx.push(i);
    if (idx.length) columns[field] = idx;
  }
  return { columns, missing: required.filter((f) => !columns[f]) };
}

// ---- writing ----

function headerOf(column: TSheetColumn, lang: TLanguage): string {
  return `${column.header?.[lang] ?? fieldLabel(column.key, lang)}${column.required ? ' *' : ''}`;
}

/**
 * An .xlsx with one sheet: a bold header row in the user's language, then the rows (and a README sheet of notes).
 * Written with exceljs' streaming writer: its in-memory `writeBuffer` hands each part to JSZip as a string, which
 * JSZip encodes to UTF-8 in 16 K-character slices — a 4-byte character (CJK Extension B, as in 𠜎, used in Taiwanese
 * names) cut by a slice came out as two U+FFFD.
 */
export async function writeWorkbook(
  sheetName: string,
  columns: TSheetColumn[],
  rows: Array<Record<string, TCell | undefined>>,
  lang: TLanguage,
  notes?: string[],
): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: true });
  wb.creator = 'WMS';
  const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({
    header: headerOf(c, lang),
    key: c.key,
    width: c.width ?? 16,
    ...(c.text ? { style: { numFmt: '@' } } : {}),
  }));
  ws.getRow(1).font = { bold: true };
  // A user whose role does not show prices gets those cells empty (the columns stay: the file keeps its shape).
  const hide = pricesHidden();
  for (const row of rows)
    ws.addRow(
      Object.fromEntries(columns.map((c) => [c.key, hide && isPriceField(c.key) ? null : (row[c.key] ?? null)])),
    ).commit();
  ws.commit();
  if (notes?.length) {
    const info = wb.addWorksheet('README');
    info.columns = [{ width: 30 }, { width: 90 }];
    for (const c of columns) info.addRow([headerOf(c, lang), c.note ?? '']).commit();
    info.addRow([]).commit();
    for (const n of notes) info.addRow([n]).commit();
    info.commit();
  }
  await wb.commit();
  return Buffer.concat(chunks);
}

export function sendXlsx(reply: FastifyReply, filename: string, content: Buffer): Buffer {
  reply.header('content-type', XLSX_TYPE);
  reply.header('content-disposition', `attachment; filename="${filename}"`);
  return content;
}
