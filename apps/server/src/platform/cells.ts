import { LANGUAGES, type TLanguage } from '@wms/contracts';

/**
 * Spreadsheet cell values → typed values, the way sellers type them (any of our languages, Excel's own types). Each
 * parser answers null for an empty cell and undefined for a value it cannot read (the caller reports the field).
 */

/** A cell as the readers give it: trimmed text (never empty), a number, a boolean, a date, or null. */
export type TCell = string | number | boolean | Date | null;

/** Labels of an enumeration's values per language (`{ single: { 'zh-TW': '單一商品', ja: …, en: … } }`). */
export type TValueLabels<K extends string> = Record<K, Record<TLanguage, string>>;

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Cell → text (a number typed into a text column comes back as a number; a date as YYYY-MM-DD); null when empty. */
export function cellText(cell: TCell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return isoDay(cell);
  return String(cell).replaceAll('\u0000', '').trim() || null;
}

/** Comparison key of words and headers: NFKC (full-width → ASCII), no whitespace or required-marks, lower case. */
export function wordKey(s: string): string {
  return s.normalize('NFKC').replaceAll('\u0000', '').replace(/[\s*]/g, '').toLowerCase();
}

const TRUE_WORDS = new Set(['y', 'yes', 'true', '1', '是', 'はい', 'o', 'v', '✓']);
const FALSE_WORDS = new Set(['n', 'no', 'false', '0', '否', 'いいえ', 'x']);

/** Y/N, 1/0, true/false, 是/否, はい/いいえ. */
export function parseBool(cell: TCell | undefined): boolean | null | undefined {
  if (cell === null || cell === undefined || cell === '') return null;
  if (typeof cell === 'boolean') return cell;
  const s = String(cell).trim().toLowerCase();
  if (TRUE_WORDS.has(s)) return true;
  if (FALSE_WORDS.has(s)) return false;
  return undefined;
}

/** How exports write a yes/no: Y or N (read back by parseBool). */
export const boolCell = (v: boolean): string => (v ? 'Y' : 'N');

function validDay(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return isoDay(t);
}

/** A date: an Excel date, a serial number, `YYYY-MM-DD`, `YYYY/M/D`, `YYYYMMDD` (a time after it is ignored). */
export function parseDay(cell: TCell | undefined): string | null | undefined {
  if (cell === null || cell === undefined || cell === '') return null;
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

/** An amount: a number or text like `NT$1,280.5`; at most 2 decimals, never negative. */
export function parseAmount(cell: TCell | undefined): string | null | undefined {
  if (cell === null || cell === undefined || cell === '') return null;
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
export function parseWhole(cell: TCell | undefined, min: number, max: number): number | null | undefined {
  if (cell === null || cell === undefined || cell === '') return null;
  const n = typeof cell === 'number' ? cell : /^\s*-?\d+(\.0+)?\s*$/.test(String(cell)) ? Number(cell) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) return undefined;
  return n;
}

/** A value of an enumeration from its key or its label in any of our languages (exports write the labels). */
export function parseEnum<K extends string>(
  cell: TCell | undefined,
  keys: readonly K[],
  labels: TValueLabels<K>,
): K | null | undefined {
  if (cell === null || cell === undefined) return null;
  const k = wordKey(cellText(cell) ?? '');
  if (!k) return null;
  for (const key of keys) {
    if (wordKey(key) === k) return key;
    if (LANGUAGES.some((l) => wordKey(labels[key][l]) === k)) return key;
  }
  return undefined;
}
