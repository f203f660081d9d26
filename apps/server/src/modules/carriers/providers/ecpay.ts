import { createHash, timingSafeEqual } from 'node:crypto';
import { ecpayPhones, normalizeTaiwanPostcode } from '@wms/contracts';
import { AppError } from '../../../platform/errors';
import type { TCarrierProvider, TProviderServices } from '../../../platform/providers';

/**
 * ECPay logistics (INTEGRATIONS.md): form POST `/Express/Create` signed with CheckMacValue; answers
 * `1|MerchantID=…&RtnCode=…&AllPayLogisticsID=…&BookingNote=…&CheckMacValue=…` or `0|<message>`. Status callbacks carry
 * the same fields and are answered `1|OK`.
 */

/** .NET-style URL encoding ECPay signs with: encodeURIComponent, then `%20`→`+`, and `!*()` left as they are. */
function dotnetUrlEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/'/g, '%27')
    .replace(/~/g, '%7e')
    .replace(/%21/g, '!')
    .replace(/%2a/gi, '*')
    .replace(/%28/g, '(')
    .replace(/%29/g, ')')
    .replace(/%2d/gi, '-')
    .replace(/%2e/gi, '.')
    .replace(/%5f/gi, '_');
}

/**
 * CheckMacValue: drop CheckMacValue, sort keys A→Z case-insensitively, join `k=v` with `&`, wrap as
 * `HashKey=<key>&…&HashIV=<iv>`, URL-encode .NET style, lowercase, MD5 (logistics) or SHA256 (payments), uppercase hex.
 */
export function ecpayCheckMacValue(
  params: Record<string, string>,
  hashKey: string,
  hashIv: string,
  algorithm: 'md5' | 'sha256' = 'md5',
): string {
  const keys = Object.keys(params)
    .filter((k) => k.toLowerCase() !== 'checkmacvalue')
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const raw = `HashKey=${hashKey}&${keys.map((k) => `${k}=${params[k]}`).join('&')}&HashIV=${hashIv}`;
  return createHash(algorithm).update(dotnetUrlEncode(raw).toLowerCase(), 'utf8').digest('hex').toUpperCase();
}

export function verifyEcpayCheckMacValue(params: Record<string, string>, hashKey: string, hashIv: string): boolean {
  const given = params.CheckMacValue ?? '';
  const expected = ecpayCheckMacValue(params, hashKey, hashIv);
  return given.length === expected.length && timingSafeEqual(Buffer.from(given.toUpperCase()), Buffer.from(expected));
}

/** `1|k=v&…` or `0|message` → the fields, or the refusal. */
export function parseEcpayAnswer(
  body: string,
): { ok: true; fields: Record<string, string> } | { ok: false; message: string } {
  const bar = body.indexOf('|');
  const head = bar >= 0 ? body.slice(0, bar) : body;
  const rest = bar >= 0 ? body.slice(bar + 1) : '';
  if (head.trim() !== '1') return { ok: false, message: rest || body };
  return { ok: true, fields: Object.fromEntries(new URLSearchParams(rest)) };
}

/** ECPay's print page per kind of consignment: one for home delivery and B2C store pickup, one per C2C chain. */
export const ECPAY_PRINT_PATHS = {
  HOME_B2C: '/helper/printTradeDocument',
  UNIMARTC2C: '/Express/PrintUniMartC2COrderInfo',
  FAMIC2C: '/Express/PrintFAMIC2COrderInfo',
  HILIFEC2C: '/Express/PrintHILIFEC2COrderInfo',
  OKMARTC2C: '/Express/PrintOKMARTC2COrderInfo',
} as const;
export type TEcpayPrintKind = keyof typeof ECPAY_PRINT_PATHS;

/**
 * The signed form that prints ECPay labels, answered with an HTML page the browser posts to a new tab (ECPay: never in
 * an iframe). Home delivery and B2C store pickup (`/helper/printTradeDocument`) print several labels at once, their
 * AllPayLogisticsIDs joined with a half-width comma. A store-to-store (C2C) label is printed on its chain's page, one
 * consignment per form: AllPayLogisticsID and CVSPaymentNo, plus CVSValidationNo at 7-ELEVEN. CheckMacValue as for
 * Express/Create (MD5).
 */
export function ecpayLabelForm(
  setting: { baseUrl: string; merchantId: string; hashKey: string; hashIv: string },
  kind: TEcpayPrintKind,
  logisticsIds: string[],
  cvs: { paymentNo: string | null; validationNo: string | null } | null = null,
): { kind: TEcpayPrintKind; action: string; fields: Record<string, string> } {
  const fields: Record<string, string> = { MerchantID: setting.merchantId, AllPayLogisticsID: logisticsIds.join(',') };
  if (kind !== 'HOME_B2C') {
    fields.CVSPaymentNo = cvs?.paymentNo ?? '';
    if (kind === 'UNIMARTC2C') fields.CVSValidationNo = cvs?.validationNo ?? '';
  }
  return {
    kind,
    action: `${setting.baseUrl.replace(/\/+$/, '')}${ECPAY_PRINT_PATHS[kind]}`,
    fields: { ...fields, CheckMacValue: ecpayCheckMacValue(fields, setting.hashKey, setting.hashIv) },
  };
}

export interface TEcpaySetting {
  baseUrl: string;
  merchantId: string;
  hashKey: string;
  hashIv: string;
  serverReplyUrl: string;
  logisticsType: 'HOME' | 'CVS';
  logisticsSubType: string;
  temperature?: string | null;
  specification?: string | null;
}

const taipeiStamp = (d = new Date()) => {
  const t = new Date(d.getTime() + 8 * 3600_000).toISOString();
  return `${t.slice(0, 4)}/${t.slice(5, 7)}/${t.slice(8, 10)} ${t.slice(11, 19)}`;
};

export function ecpayProvider(setting: TEcpaySetting, services: TProviderServices): TCarrierProvider {
  return {
    code: 'ecpay',
    async createConsignment(order, ctx) {
      const r = order.recipient as {
        name: string;
        phone?: string;
        mobile?: string;
        postcode?: string;
        address?: string;
      };
      const s = order.sender as { name: string; phone?: string; mobile?: string; postcode?: string; address?: string };
      // A mobile goes in *CellPhone (09 + 8 digits), any other number in *Phone: ECPay checks each format.
      const sp = ecpayPhones(s);
      const rp = ecpayPhones(r);
      const cvs = setting.logisticsType === 'CVS';
      const sub = setting.logisticsSubType;
      const cod = order.codAmount ? Math.round(order.codAmount) : 0;
      const goods = Math.round(order.goodsAmount ?? (cod || 1));
      const fields: Record<string, string> = {
        MerchantID: setting.merchantId,
        MerchantTradeNo: order.orderNumber.replace(/[^A-Za-z0-9]/g, '').slice(-20),
        MerchantTradeDate: taipeiStamp(),
        LogisticsType: setting.logisticsType,
        LogisticsSubType: sub,
        GoodsAmount: String(goods),
        IsCollection: cod ? 'Y' : 'N',
        ...(cod ? { CollectionAmount: String(cod) } : {}),
        GoodsName: 'WMS',
        SenderName: s.name.trim(),
        SenderPhone: sp.phone,
        SenderCellPhone: sp.cell,
        ReceiverName: r.name.trim(),
        ReceiverPhone: rp.phone,
        ReceiverCellPhone: rp.cell,
        ServerReplyURL: setting.serverReplyUrl,
        ...(cvs
          ? {
              // The store the buyer chose; 7-ELEVEN store-to-store also reports its changes to LogisticsC2CReplyURL.
              ReceiverStoreID: order.pickupStore?.storeId ?? '',
              ...(sub === 'UNIMARTC2C' ? { LogisticsC2CReplyURL: setting.serverReplyUrl } : {}),
            }
          : {
              SenderZipCode: normalizeTaiwanPostcode(s.postcode ?? ''),
              SenderAddress: (s.address ?? '').trim(),
              ReceiverZipCode: normalizeTaiwanPostcode(r.postcode ?? ''),
              ReceiverAddress: (r.address ?? '').trim(),
              Temperature: setting.temperature ?? '0001',
              Distance: '00',
              Specification: setting.specification ?? '0001',
              ScheduledDeliveryTime: '4',
            }),
      };
      fields.CheckMacValue = ecpayCheckMacValue(fields, setting.hashKey, setting.hashIv);
      const res = await services.http.send(
        {
          method: 'POST',
          url: `${setting.baseUrl}/Express/Create`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(fields).toString(),
          // ECPay refuses a repeated MerchantTradeNo: a retry could never make a second consignment.
          idempotent: true,
          secrets: [setting.hashKey, setting.hashIv],
        },
        {
          customerId: ctx.customerId,
          provider: 'ecpay',
          operation: 'express.create',
          reference: ctx.reference ?? null,
        },
      );
      if (res.status >= 500 || res.status === 429) throw new Error(`ECPay answered HTTP ${res.status}`);
      const answer = parseEcpayAnswer(res.body);
      if (!answer.ok) throw new AppError('PROVIDER_REFUSED', { status: res.status, message: answer.message });
      if (!verifyEcpayCheckMacValue(answer.fields, setting.hashKey, setting.hashIv))
        throw new AppError('PROVIDER_REFUSED', { status: res.status, message: 'CheckMacValue' });
      const a = answer.fields;
      // Store-to-store: the drop-off code is CVSPaymentNo (+ CVSValidationNo at 7-ELEVEN); else the BookingNote.
      const number = sub.endsWith('C2C')
        ? `${a.CVSPaymentNo ?? ''}${a.CVSValidationNo ?? ''}` || a.AllPayLogisticsID
        : a.BookingNote || a.CVSPaymentNo || a.AllPayLogisticsID;
      if (!number) throw new AppError('PROVIDER_REFUSED', { status: res.status, message: 'no consignment number' });
      // No PDF: the label is ECPay's print page, posted by the browser with this id (`ecpayLabelForm`).
      return {
        consignmentNumber: number,
        label: null,
        labelRef: a.AllPayLogisticsID || null,
        cvs: cvs ? { paymentNo: a.CVSPaymentNo || null, validationNo: a.CVSValidationNo || null } : null,
      };
    },
  };
}
