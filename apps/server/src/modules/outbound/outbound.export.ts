import { PassThrough } from 'node:stream';
import {
  CVS_SUBTYPES,
  fieldLabel,
  IMPORT_FIELDS,
  IMPORT_REQUIRED_FIELDS,
  ORDER_CATEGORIES,
  ORDER_CHANNELS,
  ORDER_VALUE_LABELS,
  PACKAGE_SIZE_CM,
  PACKAGE_SIZES,
  type TExportFormat,
  TIME_SLOTS,
  type TLanguage,
  type TOrder,
  type TOrderColumn,
  type TOrderListQuery,
} from '@wms/contracts';
import ExcelJS from 'exceljs';
import type { Executor } from '../../db/client';
import { type TActor, tenantOf } from '../../platform/auth';
import { taipeiDateTime, taipeiDay, taipeiToday } from '../../platform/calendar';
import { boolCell, type TCell } from '../../platform/cells';
import { EXPORT_MAX_ROWS, orderingOf } from '../../platform/listing';
import { pricesHidden } from '../../platform/request-grants';
import { type TSheetColumn, writeWorkbook, XLSX_TYPE } from '../../platform/spreadsheet';
import * as listRepo from './outbound.list.repository';
import { ORDER_SORT, orderWhere } from './outbound.list.repository';
import * as lookupRepo from './outbound.lookups.repository';
import { getColumnSettings } from './outbound.orders';
import * as orderRepo from './outbound.orders.repository';
import { type TOutboundDeps, toLine, toOrder } from './outbound.views';

/**
 * Order files (/deliver-export): the standard Excel (the columns chosen on /customize, one row per line, readable
 * by the import again) and carrier upload formats (one row per order) to obtain consignment numbers: T-cat (Egs
 * PrintOBT fields), HCT (TransData fields), ECPay logistics (Express/Create fields). Written with exceljs' streaming
 * writer page by page, so a large export never sits in memory.
 */

const PAGE = 500;

/** The label key of a list/export column in the field labels of the error catalogue. */
const COLUMN_LABEL: Partial<Record<TOrderColumn, string>> = { number: 'order_number' };
export const columnLabel = (c: string, lang: TLanguage) => fieldLabel(COLUMN_LABEL[c as TOrderColumn] ?? c, lang);

const compactDay = (d: string | null) => (d ? d.replaceAll('-', '') : '');
const amount = (v: string | null) => (v === null ? null : Number(v));

/** The value of one list/export column of an order, as a spreadsheet shows it. */
export function columnValue(o: TOrder, c: TOrderColumn, lang: TLanguage): TCell {
  switch (c) {
    case 'status':
      return ORDER_VALUE_LABELS.status[o.status][lang];
    case 'category':
      return ORDER_VALUE_LABELS.category[o.category][lang];
    case 'channel':
      return ORDER_VALUE_LABELS.channel[o.channel][lang];
    case 'arrival_time_slot':
      return o.arrival_time_slot ? ORDER_VALUE_LABELS.arrival_time_slot[o.arrival_time_slot][lang] : null;
    case 'platform':
      return o.platform_code;
    case 'warehouse':
      return o.warehouse_code;
    case 'logistics_provider':
      return o.logistics_provider_code;
    case 'batch':
      return o.batch_number;
    case 'is_cross_border':
      return boolCell(o.is_cross_border);
    case 'cod':
      return boolCell(o.cod);
    case 'cod_amount':
      return amount(o.cod_amount);
    case 'total_amount':
      return amount(o.total_amount);
    case 'created_at':
    case 'exported_at':
    case 'closed_at':
      return taipeiDateTime(o[c]);
    default:
      return o[c] as TCell;
  }
}

type TCarrierRow = Record<string, TCell>;
type TCarrierContext = {
  order: TOrder;
  productName: string;
  provider: Awaited<ReturnType<typeof lookupRepo.providersOf>>[number] | undefined;
  today: string;
};

const SLOT_TCAT: Record<string, string> = { morning: '01', afternoon: '02', any: '04' };
const SLOT_ECPAY: Record<string, string> = { morning: '1', afternoon: '2', any: '4' };
/** T-cat/ECPay temperature codes and HCT's (001 general, 003 frozen, 008 refrigerated), both ways. */
const TEMP_TO_HCT: Record<string, string> = { '0001': '001', '0002': '008', '0003': '003' };
const TEMP_FROM_HCT: Record<string, string> = { '001': '0001', '008': '0002', '003': '0003' };

function temperature4(ctx: TCarrierContext): string {
  const t = ctx.provider?.temperature_code ?? '0001';
  return TEMP_FROM_HCT[t] ?? t;
}
const mobileOf = (o: TOrder) => o.recipient_mobile || (/^09\d{8}$/.test(o.recipient_phone) ? o.recipient_phone : '');
const specOf = (ctx: TCarrierContext) => ctx.order.volume ?? ctx.provider?.specification_code ?? '0001';

/** Carrier upload formats: header → value per order. */
export const CARRIER_FORMATS: Record<Exclude<TExportFormat, 'standard'>, (ctx: TCarrierContext) => TCarrierRow> = {
  /** T-cat Egs PrintOBT order fields; OBTNumber is the consignment number T-cat returns. */
  tcat: (ctx) => {
    const o = ctx.order;
    return {
      OBTNumber: o.consignment_number ?? '',
      OrderId: o.number,
      Thermosphere: temperature4(ctx),
      Spec: specOf(ctx),
      ReceiptLocation: '01',
      RecipientName: o.recipient_name,
      RecipientTel: o.recipient_phone,
      RecipientMobile: mobileOf(o),
      RecipientAddress: `${o.recipient_postcode} ${o.recipient_address}`.trim(),
      SenderName: o.sender_name,
      SenderTel: o.sender_phone,
      SenderMobile: /^09\d{8}$/.test(o.sender_phone) ? o.sender_phone : '',
      SenderZipCode: o.sender_postcode,
      SenderAddress: o.sender_address,
      ShipmentDate: compactDay(o.shipping_date ?? ctx.today),
      DeliveryDate: compactDay(o.arrival_date),
      DeliveryTime: SLOT_TCAT[o.arrival_time_slot ?? 'any']!,
      IsCollection: o.cod ? 'Y' : 'N',
      CollectionAmount: o.cod ? Math.round(Number(o.cod_amount ?? 0)) : 0,
      ProductTypeId: '0015',
      ProductName: ctx.productName.slice(0, 20),
      Memo: o.shipping_remark.slice(0, 20),
    };
  },
  /** HCT TransData_Json fields; edelno is the consignment number HCT returns. */
  hct: ({ order: o, provider, productName }) => ({
    epino: o.number,
    ercsig: o.recipient_name,
    ertel1: mobileOf(o) || o.recipient_phone,
    eraddr: `${o.recipient_postcode} ${o.recipient_address}`.trim(),
    ejamt: o.piece_count,
    eqamt: o.volume ? PACKAGE_SIZE_CM[o.volume] : '',
    eprdct: provider?.contract_type ?? (o.cod ? '21' : '11'),
    eprdcl2: TEMP_TO_HCT[provider?.temperature_code ?? ''] ?? provider?.temperature_code ?? '001',
    emark: [productName, o.shipping_remark].filter(Boolean).join(' ').slice(0, 50),
    eqmny: o.cod ? Math.round(Number(o.cod_amount ?? 0)) : 0,
    eddate: compactDay(o.arrival_date),
    edelno: o.consignment_number ?? '',
  }),
  /** ECPay logistics Express/Create (HOME) fields. */
  ecpay: (ctx) => {
    const o = ctx.order;
    return {
      MerchantTradeNo: o.number.slice(0, 20),
      LogisticsType: 'HOME',
      LogisticsSubType: 'TCAT',
      GoodsAmount: Math.min(20000, Math.max(1, Math.round(Number(o.total_amount ?? o.cod_amount ?? 1)))),
      IsCollection: o.cod ? 'Y' : 'N',
      CollectionAmount: o.cod ? Math.round(Number(o.cod_amount ?? 0)) : 0,
      GoodsName: ctx.productName.slice(0, 50),
      SenderName: o.sender_name,
      SenderPhone: o.sender_phone,
      SenderCellPhone: /^09\d{8}$/.test(o.sender_phone) ? o.sender_phone : '',
      SenderZipCode: o.sender_postcode,
      SenderAddress: o.sender_address,
      ReceiverName: o.recipient_name,
      ReceiverPhone: o.recipient_phone,
      ReceiverCellPhone: mobileOf(o),
      ReceiverZipCode: o.recipient_postcode,
      ReceiverAddress: o.recipient_address,
      Temperature: temperature4(ctx),
      Distance: '00',
      Specification: specOf(ctx),
      ScheduledDeliveryTime: SLOT_ECPAY[o.arrival_time_slot ?? 'any']!,
      Remark: o.shipping_remark.slice(0, 60),
      AllPayLogisticsID: o.consignment_number ?? '',
    };
  },
};

/**
 * The export file as a stream (the route sends it as it is written). Filters are the list's; `ids` exports a
 * selection. At most EXPORT_MAX_ROWS orders.
 */
export async function exportOrdersFile(
  deps: TOutboundDeps,
  actor: TActor,
  q: TOrderListQuery & { format: TExportFormat },
  lang: TLanguage,
): Promise<{ filename: string; contentType: string; stream: PassThrough }> {
  const customerId = tenantOf(actor);
  const where = orderWhere(customerId, q);
  const order = orderingOf(q.ordering ?? 'number', ORDER_SORT, 'number', orderRepo.orderColumns.order.id);
  const columns = (await getColumnSettings(deps, actor)).deliver_export;
  const providers = await lookupRepo.providersOf(deps.db, customerId);
  const stream = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(q.format === 'standard' ? 'orders' : q.format);
  const lineColumns = ['product', 'product_name', 'quantity', 'unit_price'];
  // Read now, in the request: the rows are written while the answer streams.
  const hidePrices = pricesHidden();
  let headerWritten = false;

  const writeRows = async (ex: Executor) => {
    for (let offset = 0; offset < EXPORT_MAX_ROWS; offset += PAGE) {
      const views = await listRepo.pageOrderViews(ex, where, order, { limit: PAGE, offset });
      const orders = views.map(toOrder);
      const lines = await orderRepo.orderLines(
        ex,
        customerId,
        orders.map((o) => o.id),
      );
      for (const o of orders) {
        const own = lines.filter((l) => l.order_id === o.id).map(toLine);
        if (q.format === 'standard') {
          if (!headerWritten) {
            ws.addRow([
              ...columns.map((c) => columnLabel(c, lang)),
              ...lineColumns.map((c) => fieldLabel(c, lang)),
            ]).commit();
            headerWritten = true;
          }
          const head = columns.map((c) => columnValue(o, c, lang));
          for (const l of own.length ? own : [null])
            ws.addRow([
              ...head,
              l?.product_number ?? null,
              l?.product_name ?? null,
              l?.quantity ?? null,
              l?.unit_price === null || l === null || hidePrices ? null : Number(l.unit_price),
            ]).commit();
        } else {
          const row = CARRIER_FORMATS[q.format]({
            order: o,
            productName: own.map((l) => l.product_name).join('、'),
            provider: providers.find((p) => p.id === o.logistics_provider_id),
            today: taipeiToday(),
          });
          if (!headerWritten) {
            ws.addRow(Object.keys(row)).commit();
            headerWritten = true;
          }
          ws.addRow(Object.values(row)).commit();
        }
      }
      if (views.length < PAGE) break;
    }
    if (!headerWritten) {
      const headers =
        q.format === 'standard'
          ? [...columns.map((c) => columnLabel(c, lang)), ...lineColumns.map((c) => fieldLabel(c, lang))]
          : Object.keys(
              CARRIER_FORMATS[q.format]({ order: blankOrder, productName: '', provider: undefined, today: '' }),
            );
      ws.addRow(headers).commit();
    }
    ws.commit();
    await wb.commit();
  };
  void writeRows(deps.db).catch((err) => stream.destroy(err as Error));
  const stamp = taipeiDay();
  return { filename: `orders-${q.format}-${stamp}.xlsx`, contentType: XLSX_TYPE, stream };
}

const blankOrder = {
  number: '',
  consignment_number: null,
  recipient_name: '',
  recipient_phone: '',
  recipient_mobile: '',
  recipient_postcode: '',
  recipient_address: '',
  sender_name: '',
  sender_phone: '',
  sender_postcode: '',
  sender_address: '',
  shipping_remark: '',
  shipping_date: null,
  arrival_date: null,
  arrival_time_slot: null,
  cod: false,
  cod_amount: null,
  total_amount: null,
  piece_count: 1,
  volume: null,
} as unknown as TOrder;

/** The standard import template: our fields as headers in the user's language (required ones marked), notes, an example. */
export async function importTemplate(lang: TLanguage): Promise<Buffer> {
  const label = (m: Record<string, Record<TLanguage, string>>, keys: readonly string[]) =>
    keys.map((k) => `${k} / ${m[k]![lang]}`).join(', ');
  const notes: Partial<Record<(typeof IMPORT_FIELDS)[number], string>> = {
    platform_order_number: 'rows with the same number are one order / 同一編號的列為同一張訂單',
    channel: label(ORDER_VALUE_LABELS.channel, ORDER_CHANNELS),
    category: label(ORDER_VALUE_LABELS.category, ORDER_CATEGORIES),
    arrival_time_slot: label(ORDER_VALUE_LABELS.arrival_time_slot, TIME_SLOTS),
    volume: PACKAGE_SIZES.map((s) => `${s} = ${PACKAGE_SIZE_CM[s]} cm`).join(', '),
    shipping_date: 'YYYY-MM-DD',
    arrival_date: 'YYYY-MM-DD',
    cod: 'Y / N',
    is_cross_border: 'Y / N',
    platform: 'code / 代碼',
    warehouse: 'code / 代碼',
    logistics_provider: 'code or name / 代碼或名稱',
    product: 'product number or barcode / 商品編號或國際條碼',
    cvs_subtype: `ECPay store pickup / 綠界超商取貨: ${CVS_SUBTYPES.join(', ')}`,
  };
  const columns: TSheetColumn[] = IMPORT_FIELDS.map((key) => ({
    key,
    required: IMPORT_REQUIRED_FIELDS.includes(key),
    note: notes[key],
    width: 18,
  }));
  const example: Record<string, TCell> = {
    platform_order_number: 'PO-0001',
    recipient_name: '王小明',
    recipient_phone: '0912345678',
    recipient_postcode: '100',
    recipient_address: '台北市中正區重慶南路一段 122 號',
    product: 'SKU-001',
    quantity: 1,
  };
  return writeWorkbook('orders', columns, [example], lang, []);
}
