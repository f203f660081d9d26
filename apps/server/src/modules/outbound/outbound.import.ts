import {
  CVS_STORE_ID,
  CVS_SUBTYPES,
  IMPORT_FIELDS,
  IMPORT_REQUIRED_FIELDS,
  MAX_LINE_QUANTITY,
  ORDER_CATEGORIES,
  ORDER_CHANNELS,
  ORDER_TEXT_LIMITS,
  ORDER_VALUE_LABELS,
  PACKAGE_SIZE_CM,
  PACKAGE_SIZES,
  type TCvsSubtype,
  TIME_SLOTS,
  type TImportField,
  type TImportMapping,
} from '@wms/contracts';
import {
  cellText,
  parseAmount,
  parseBool,
  parseDay,
  parseEnum,
  parseWhole,
  type TCell,
  wordKey,
} from '../../platform/cells';
import type { TFieldIssue, TImportLayout } from '../../platform/importing';
import { columnNames, matchColumns } from '../../platform/spreadsheet';
import type { TOrderIntakeFields, TOrderIntakeLine } from './outbound.intake.rows';

/**
 * What is particular to order files (the platform's spreadsheet reader and import kernel do the rest): column
 * mapping (our template in any language, a seller's saved layout, Shopee Taiwan's export), and parsing of a row's
 * cells into order fields with the spec's abnormal codes. No database access here.
 */

// ---- headers and column mapping ----

/**
 * Headers of Shopee Taiwan's Seller Centre order export ("Order.toship….xlsx": one row per item, order fields
 * repeated). 商品選項貨號 may hold a placeholder (`見選項`, `-`), so the main product SKU is the fallback. Some
 * headers carry a line break and a note after the name (收件者電話 with a personal-data note): they are matched by
 * their first words. 寄送方式 is the shipping method's name (黑貓宅急便, 7-ELEVEN…), not a carrier code of ours, so it
 * is not suggested for the logistics provider; 付款方式 = 貨到付款 is collect on delivery, for the buyer's total.
 */
export const SHOPEE_TW_HEADERS: Partial<Record<TImportField, string[]>> = {
  platform_order_number: ['訂單編號'],
  consignment_number: ['包裹查詢號碼'],
  recipient_name: ['收件者姓名'],
  recipient_phone: ['收件者電話', '電話號碼'],
  recipient_postcode: ['郵遞區號'],
  recipient_address: ['收件地址'],
  shipping_remark: ['買家備註'],
  cod: ['付款方式'],
  total_amount: ['買家總支付金額', '訂單總金額'],
  product: ['商品選項貨號', '主商品貨號'],
  quantity: ['數量'],
  unit_price: ['商品活動價格', '商品原價'],
};

/**
 * The name of a CJK header before its note (`收件者電話 (請注意…)` → `收件者電話`; a CJK name has no spaces, so a
 * space there was a line break). Latin headers are left whole: "Platform order number" is not "Platform".
 */
function leadingWords(header: string): string {
  const lead = header.split(/[\s(（【[:：]/)[0] ?? '';
  return lead !== header && /^[^\p{ASCII}]+$/u.test(lead) ? lead : '';
}

/**
 * A mapping guessed from a file's headers: our template in any language first, then known platform exports. A
 * header matches a name exactly, or by its leading words when it carries a note.
 */
export function suggestMapping(headers: string[]): TImportMapping {
  const present = new Map<string, string>();
  for (const h of headers) if (h && !present.has(wordKey(h))) present.set(wordKey(h), h);
  for (const h of headers) {
    const lead = wordKey(leadingWords(h));
    if (lead && !present.has(lead)) present.set(lead, h);
  }
  const mapping: TImportMapping = {};
  for (const field of IMPORT_FIELDS) {
    const names = [...columnNames(field), ...(SHOPEE_TW_HEADERS[field] ?? [])];
    const found: string[] = [];
    for (const n of names) {
      const h = present.get(wordKey(n));
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
  return matchColumns<TImportField>(headers, mapping, IMPORT_REQUIRED_FIELDS);
}

/** How the import reads an order file: the seller's saved layout (header row, mapping), else a guessed mapping. */
export function orderFileLayout(form: {
  headerRow: number;
  mapping: TImportMapping | null;
}): TImportLayout<TImportField> {
  return {
    headerRow: form.headerRow,
    names: form.mapping ?? suggestMapping,
    required: IMPORT_REQUIRED_FIELDS,
  };
}

// ---- cell values ----

/** SKU cells that platforms fill with a placeholder instead of a SKU. */
const SKU_PLACEHOLDERS = new Set(['-', '--', 'null', 'nan', 'none', 'n/a', 'na', '見選項', '无', '無']);

function text(cell: TCell | undefined): string {
  return cellText(cell) ?? '';
}

const COD_WORDS = new Set(['cod', '貨到付款', '代收', '代收貨款', '代引', '代金引換', '着払い']);

/**
 * Collect on delivery: yes/no words, or a payment method column (Shopee's 付款方式): 貨到付款 and the like mean yes,
 * any other payment method means no.
 */
export function parseCod(cell: TCell): boolean {
  const b = parseBool(cell);
  if (b !== undefined) return b ?? false;
  return COD_WORDS.has(String(cell).trim().toLowerCase());
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

type TTextField =
  | keyof typeof ORDER_TEXT_LIMITS
  | 'consignment_number'
  | 'platform'
  | 'warehouse'
  | 'logistics_provider';
const NO_COLUMNS: readonly number[] = [];

/**
 * Reads a row's cells through the resolved columns. Called for every row of a file (twice: check pass, write pass),
 * so it allocates little: no closures or empty column lists per row, each cell read once.
 */
export class RowReader {
  constructor(private readonly columns: TColumns) {}

  /** The first non-empty cell of the field's columns. */
  cell(cells: TCell[], field: TImportField): TCell {
    const columns = this.columns[field] ?? NO_COLUMNS;
    for (let k = 0; k < columns.length; k++) {
      const c = cells[columns[k]!];
      if (c !== null && c !== undefined && text(c) !== '') return c;
    }
    return null;
  }

  /** A text field, cut at its length limit (INVALID_FIELD beyond it); phones as `phoneText` reads them. */
  private str(cells: TCell[], field: TTextField, issues: TFieldIssue[]): string {
    const c = this.cell(cells, field);
    const v = field.endsWith('phone') || field.endsWith('mobile') ? phoneText(c) : text(c);
    const max = field in ORDER_TEXT_LIMITS ? ORDER_TEXT_LIMITS[field as keyof typeof ORDER_TEXT_LIMITS] : 100;
    if (v.length > max) issues.push({ code: 'INVALID_FIELD', field, value: `${v.slice(0, 20)}…` });
    return v.length > max ? v.slice(0, max) : v;
  }

  private day(cells: TCell[], field: 'shipping_date' | 'arrival_date', issues: TFieldIssue[]): string | null {
    const c = this.cell(cells, field);
    const v = parseDay(c);
    if (v === undefined) issues.push({ code: 'INVALID_FIELD', field, value: text(c) });
    return v ?? null;
  }

  private amount(cells: TCell[], field: 'cod_amount' | 'total_amount', issues: TFieldIssue[]): string | null {
    const c = this.cell(cells, field);
    const v = parseAmount(c);
    if (v === undefined) issues.push({ code: 'INVALID_FIELD', field, value: text(c) });
    return v ?? null;
  }

  /**
   * The buyer's pickup store (ECPay store pickup): the kind as ECPay's LogisticsSubType (UNIMARTC2C, FAMI…) and the
   * store id (1–6 letters or digits); null when the row names none. A store without a kind, or a bad id, is a problem.
   */
  cvs(cells: TCell[], issues: TFieldIssue[]): { subtype: TCvsSubtype; store_id: string; store_name: string } | null {
    const subtype = text(this.cell(cells, 'cvs_subtype')).trim().toUpperCase();
    const storeId = text(this.cell(cells, 'cvs_store_id')).trim();
    const storeName = text(this.cell(cells, 'cvs_store_name')).trim().slice(0, 60);
    if (!subtype && !storeId) return null;
    if (!(CVS_SUBTYPES as readonly string[]).includes(subtype)) {
      issues.push({ code: subtype ? 'INVALID_FIELD' : 'REQUIRED_FIELD', field: 'cvs_subtype', value: subtype || null });
      return null;
    }
    if (!CVS_STORE_ID.test(storeId)) {
      issues.push({
        code: storeId ? 'INVALID_FIELD' : 'REQUIRED_FIELD',
        field: 'cvs_store_id',
        value: storeId || null,
      });
      return null;
    }
    return { subtype: subtype as TCvsSubtype, store_id: storeId, store_name: storeName };
  }

  /** The grouping key of the row: its platform order number. */
  orderKey(cells: TCell[]): string {
    return text(this.cell(cells, 'platform_order_number'));
  }

  line(cells: TCell[], issues: TFieldIssue[]): TOrderIntakeLine {
    const products: string[] = [];
    for (const i of this.columns.product ?? NO_COLUMNS) {
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

  header(cells: TCell[], issues: TFieldIssue[]): TOrderIntakeFields {
    // Problems in the order they were always reported: the checked fields first, then the fields as they are read.
    const consignment = this.str(cells, 'consignment_number', issues);
    if (consignment && !/^[A-Za-z0-9][A-Za-z0-9-]{0,39}$/.test(consignment))
      issues.push({ code: 'INVALID_FIELD', field: 'consignment_number', value: consignment });

    const categoryCell = this.cell(cells, 'category');
    const category = parseEnum(categoryCell, ORDER_CATEGORIES, ORDER_VALUE_LABELS.category);
    if (category === undefined) issues.push({ code: 'INVALID_FIELD', field: 'category', value: text(categoryCell) });
    const channelCell = this.cell(cells, 'channel');
    const channel = parseEnum(channelCell, ORDER_CHANNELS, ORDER_VALUE_LABELS.channel);
    if (channel === undefined) issues.push({ code: 'CHANNEL_ABNORMAL', field: 'channel', value: text(channelCell) });
    const slotCell = this.cell(cells, 'arrival_time_slot');
    const slot =
      slotCell === null
        ? null
        : (SLOT_CODES[text(slotCell)] ?? parseEnum(slotCell, TIME_SLOTS, ORDER_VALUE_LABELS.arrival_time_slot));
    if (slot === undefined) issues.push({ code: 'INVALID_FIELD', field: 'arrival_time_slot', value: text(slotCell) });
    const crossCell = this.cell(cells, 'is_cross_border');
    const cross = parseBool(crossCell);
    if (cross === undefined) issues.push({ code: 'INVALID_FIELD', field: 'is_cross_border', value: text(crossCell) });
    const piecesCell = this.cell(cells, 'piece_count');
    const pieces = parseWhole(piecesCell, 1, 99);
    if (pieces === undefined) issues.push({ code: 'INVALID_FIELD', field: 'piece_count', value: text(piecesCell) });
    const volumeCell = this.cell(cells, 'volume');
    const volume = volumeCell === null ? null : parseVolume(volumeCell);
    if (volume === undefined) issues.push({ code: 'INVALID_FIELD', field: 'volume', value: text(volumeCell) });

    return {
      platform_order_number: this.str(cells, 'platform_order_number', issues),
      third_party_number: this.str(cells, 'third_party_number', issues) || null,
      consignment_number: consignment || null,
      shipping_date: this.day(cells, 'shipping_date', issues),
      category: category ?? null,
      channel: channel ?? null,
      platform: this.str(cells, 'platform', issues) || null,
      is_cross_border: cross ?? false,
      recipient_name: this.str(cells, 'recipient_name', issues),
      recipient_phone: this.str(cells, 'recipient_phone', issues),
      recipient_mobile: this.str(cells, 'recipient_mobile', issues),
      recipient_postcode: this.str(cells, 'recipient_postcode', issues),
      recipient_address: this.str(cells, 'recipient_address', issues),
      sender_name: this.str(cells, 'sender_name', issues),
      sender_phone: this.str(cells, 'sender_phone', issues),
      sender_postcode: this.str(cells, 'sender_postcode', issues),
      sender_address: this.str(cells, 'sender_address', issues),
      shipping_remark: this.str(cells, 'shipping_remark', issues),
      warehouse: this.str(cells, 'warehouse', issues) || null,
      arrival_date: this.day(cells, 'arrival_date', issues),
      arrival_time_slot: slot ?? null,
      logistics_provider: this.str(cells, 'logistics_provider', issues) || null,
      cod: parseCod(this.cell(cells, 'cod')),
      cod_amount: this.amount(cells, 'cod_amount', issues),
      total_amount: this.amount(cells, 'total_amount', issues),
      piece_count: pieces ?? 1,
      volume: volume ?? null,
    };
  }
}
