import { fieldLabel, LANGUAGES, type TLanguage } from '@wms/contracts';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from '../../platform/errors';

/** A column of an export, template or import: `key` is the API field, the header is its label in the user's language. */
export interface TSheetColumn {
  key: string;
  width?: number;
  required?: boolean;
  /** What the column accepts, shown on the template's notes sheet. */
  note?: string;
  /** A text column (codes, barcodes): Excel must not turn `0360…` into a number and drop the zero. */
  text?: boolean;
}

export type TCellValue = string | number | boolean | Date | null;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function headerOf(column: TSheetColumn, lang: TLanguage): string {
  return `${fieldLabel(column.key, lang)}${column.required ? ' *' : ''}`;
}

/** An .xlsx with one sheet: a bold header row in the user's language, then the rows. */
export async function writeWorkbook(
  sheetName: string,
  columns: TSheetColumn[],
  rows: Array<Record<string, TCellValue | undefined>>,
  lang: TLanguage,
  notes?: string[],
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'WMS';
  const ws = wb.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: headerOf(c, lang), key: c.key, width: c.width ?? 16 }));
  ws.getRow(1).font = { bold: true };
  columns.forEach((c, i) => {
    if (c.text) ws.getColumn(i + 1).numFmt = '@';
  });
  for (const row of rows) ws.addRow(Object.fromEntries(columns.map((c) => [c.key, row[c.key] ?? null])));
  if (notes?.length) {
    const info = wb.addWorksheet('README');
    info.getColumn(1).width = 30;
    info.getColumn(2).width = 90;
    for (const c of columns) info.addRow([headerOf(c, lang), c.note ?? '']);
    info.addRow([]);
    for (const n of notes) info.addRow([n]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function sendXlsx(reply: FastifyReply, filename: string, content: Buffer): Buffer {
  reply.header('content-type', XLSX_TYPE);
  reply.header('content-disposition', `attachment; filename="${filename}"`);
  return content;
}

const normalise = (s: string) => s.replace(/\*/g, '').replace(/\s+/g, '').toLowerCase();

function plain(value: ExcelJS.CellValue): TCellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if (typeof value === 'object') {
    if ('richText' in value)
      return (
        value.richText
          .map((r) => r.text)
          .join('')
          .trim() || null
      );
    if ('result' in value) return plain(value.result as ExcelJS.CellValue);
    if ('text' in value) return String(value.text).trim() || null;
    if ('error' in value) return null;
  }
  return String(value);
}

export interface TReadRow {
  /** The row number the user sees in Excel. */
  row: number;
  values: Record<string, TCellValue>;
}

/**
 * Read the first sheet of an uploaded .xlsx. Headers are matched to columns by key or by their label in any of
 * our languages (so a template downloaded in English can be filled in by a colleague working in Chinese); empty
 * rows are skipped. A file that is not an .xlsx, or lacks a required column, is rejected as a whole.
 */
export async function readWorkbook(
  content: Buffer,
  columns: TSheetColumn[],
  maxRows: number,
): Promise<{ rows: TReadRow[]; missing: string[] }> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new AppError('IMPORT_FILE_INVALID', { field: 'file_base64' });
  const lookup = new Map<string, string>();
  for (const c of columns) {
    lookup.set(normalise(c.key), c.key);
    for (const lang of LANGUAGES) lookup.set(normalise(fieldLabel(c.key, lang)), c.key);
  }
  const positions = new Map<number, string>();
  ws.getRow(1).eachCell((cell, col) => {
    const key = lookup.get(normalise(String(plain(cell.value) ?? '')));
    if (key) positions.set(col, key);
  });
  const present = new Set(positions.values());
  const missing = columns.filter((c) => c.required && !present.has(c.key)).map((c) => c.key);
  const rows: TReadRow[] = [];
  if (ws.rowCount - 1 > maxRows) throw new AppError('ABNORMAL_QUANTITY', { field: 'file_base64', max: maxRows });
  ws.eachRow((r, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, TCellValue> = {};
    let any = false;
    for (const [col, key] of positions) {
      const v = plain(r.getCell(col).value);
      values[key] = v;
      if (v !== null) any = true;
    }
    if (any) rows.push({ row: rowNumber, values });
  });
  return { rows, missing };
}

/** Cell → string (numbers a user typed into a text column come back as numbers). */
export function cellText(v: TCellValue | undefined): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  return String(v).trim() || null;
}

/** Cell → boolean: Y/N, 1/0, true/false, 是/否, はい/いいえ. Unknown text is an error (undefined). */
export function cellBool(v: TCellValue | undefined): boolean | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['y', 'yes', 'true', '1', '是', 'はい', 'o', 'v'].includes(s)) return true;
  if (['n', 'no', 'false', '0', '否', 'いいえ', 'x'].includes(s)) return false;
  return undefined;
}

export const boolCell = (v: boolean): string => (v ? 'Y' : 'N');
