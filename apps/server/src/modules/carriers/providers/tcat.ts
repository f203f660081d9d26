import { AppError } from '../../../platform/errors';
import type { TCallContext, TCarrierProvider, TProviderServices } from '../../../platform/providers';

/**
 * T-cat (黑貓宅急便) contract-customer "Egs" API (INTEGRATIONS.md; fields as T-cat's 印單 API 平台 spec v2.0.5 names them —
 * T-cat does not publish it openly; checked against open-source clients written from it, e.g. a TypeScript client
 * headed "黑貓宅急便 印單 API 平台 v2.0.5" found through code search): JSON POST `{base}/{Service}` with `CustomerId` and
 * `CustomerToken` in the body (no signature), every answer `{SrvTranId, IsOK: "Y"|"N", Message, Data}`.
 * - `ParsingAddress` turns the sender's address into T-cat's 6-character post number (`SenderZipCode`).
 * - `PrintOBT` (PrintType 01: T-cat assigns the number) creates the consignment → `Data.Orders[].OBTNumber` and the
 *   label's `Data.FileNo`. It has a side effect and is never retried: a second call would make a second consignment.
 * - `DownloadOBT {FileNo, Orders:[{OBTNumber}]}` returns the label PDF (HTTP 200, binary) or a JSON refusal (HTTP
 *   400). The FileNo is valid for 24 hours, so the label is fetched right after the number and stored with the order.
 */

export interface TTcatSetting {
  baseUrl: string;
  customerId: string;
  customerToken: string;
  /** PrintOBTType: 01 A4 two per sheet, 02 A4 three per sheet, 03 thermal label. */
  printObtType?: '01' | '02' | '03';
}

export interface TTcatEnvelope<T> {
  SrvTranId?: string;
  IsOK: 'Y' | 'N';
  Message: string;
  Data: T | null;
}

/** The carrier is slow when busy: its guide asks for at least 120 s. */
const TCAT_TIMEOUT_MS = 120_000;

/** yyyyMMdd in Taiwan time, `days` after today. */
export function tcatDate(days = 0, now = new Date()): string {
  return new Date(now.getTime() + 8 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
}

/** T-cat's post number (`71-802-24-B`, `80224B`) → the 6 characters `SenderZipCode` takes. */
export function tcatZipCode(postNumber: string): string {
  return postNumber.replace(/[-\s]/g, '').slice(-6);
}

/** Mobile `09` + 8 digits (dashes, spaces and +886 accepted) or '' when the value is not a mobile number. */
export function tcatMobile(value: string | null | undefined): string {
  const digits = (value ?? '').replace(/[^\d+]/g, '').replace(/^\+?886/, '0');
  return /^09\d{8}$/.test(digits) ? digits : '';
}

/** Up to 20 characters (T-cat's limit on ProductName). */
const cut20 = (s: string) => [...s].slice(0, 20).join('');

export function parseTcatEnvelope<T>(body: string): TTcatEnvelope<T> | null {
  try {
    const v = JSON.parse(body) as TTcatEnvelope<T>;
    return v && (v.IsOK === 'Y' || v.IsOK === 'N') ? v : null;
  } catch {
    return null;
  }
}

export function tcatProvider(setting: TTcatSetting, services: TProviderServices): TCarrierProvider {
  const secrets = [setting.customerToken];
  const call = async <T>(
    service: string,
    payload: Record<string, unknown>,
    ctx: TCallContext,
    idempotent: boolean,
  ): Promise<{ status: number; envelope: TTcatEnvelope<T> | null; raw: Buffer; type: string }> => {
    const res = await services.http.send(
      {
        method: 'POST',
        url: `${setting.baseUrl}/${service}`,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ CustomerId: setting.customerId, CustomerToken: setting.customerToken, ...payload }),
        idempotent,
        timeoutMs: TCAT_TIMEOUT_MS,
        secrets,
      },
      { customerId: ctx.customerId, provider: 'tcat', operation: service, reference: ctx.reference ?? null },
    );
    const type = res.headers['content-type'] ?? '';
    return { status: res.status, envelope: parseTcatEnvelope<T>(res.body), raw: res.raw, type };
  };
  const unavailable = (service: string, status: number) => new Error(`T-cat ${service} answered HTTP ${status}`);

  async function downloadLabel(fileNo: string, obtNumber: string, ctx: TCallContext): Promise<Buffer> {
    const r = await call('DownloadOBT', { FileNo: fileNo, Orders: [{ OBTNumber: obtNumber }] }, ctx, true);
    if (r.status >= 500 || r.status === 429) throw unavailable('DownloadOBT', r.status);
    if (r.status === 200 && r.raw.subarray(0, 5).toString('latin1') === '%PDF-') return r.raw;
    throw new AppError('PROVIDER_REFUSED', {
      status: r.status,
      message: r.envelope?.Message || `DownloadOBT HTTP ${r.status}`,
    });
  }

  return {
    code: 'tcat',
    async createConsignment(order, ctx) {
      const rc = order.recipient as { name: string; phone?: string; mobile?: string; address?: string };
      const sd = order.sender as { name: string; phone?: string; mobile?: string; address?: string };
      // The sender's post number (ParsingAddress: a query, safe to retry).
      const senderAddress = (sd.address ?? '').trim();
      let senderZip = '';
      if (senderAddress) {
        const p = await call<{ Addresses: Array<{ Search: string; PostNumber: string }> }>(
          'ParsingAddress',
          { PostType: '01', Addresses: [{ Search: senderAddress }] },
          ctx,
          true,
        );
        if (p.status >= 500 || p.status === 429) throw unavailable('ParsingAddress', p.status);
        if (!p.envelope) throw unavailable('ParsingAddress', p.status);
        if (p.envelope.IsOK !== 'Y')
          throw new AppError('PROVIDER_REFUSED', { status: p.status, message: p.envelope.Message });
        senderZip = tcatZipCode(p.envelope.Data?.Addresses?.[0]?.PostNumber ?? '');
      }
      const cod = order.codAmount ? Math.round(order.codAmount) : 0;
      const payload = {
        PrintType: '01',
        PrintOBTType: setting.printObtType ?? '01',
        Orders: [
          {
            OBTNumber: '',
            OrderId: order.orderNumber,
            Thermosphere: order.temperature ?? '0001',
            Spec: order.specification ?? '0001',
            ReceiptLocation: '01',
            ReceiptStationNo: '',
            RecipientName: rc.name,
            RecipientTel: rc.phone && !tcatMobile(rc.phone) ? rc.phone : '',
            RecipientMobile: tcatMobile(rc.mobile) || tcatMobile(rc.phone),
            RecipientAddress: rc.address ?? '',
            SenderName: sd.name,
            SenderTel: sd.phone && !tcatMobile(sd.phone) ? sd.phone : '',
            SenderMobile: tcatMobile(sd.mobile) || tcatMobile(sd.phone),
            SenderZipCode: senderZip,
            SenderAddress: senderAddress,
            ShipmentDate: tcatDate(0),
            DeliveryDate: tcatDate(1),
            DeliveryTime: '04',
            IsFreight: 'N',
            IsCollection: cod > 0 ? 'Y' : 'N',
            CollectionAmount: cod,
            IsSwipe: 'N',
            IsMobilePay: 'N',
            IsDeclare: 'N',
            DeclareAmount: 0,
            ProductTypeId: '0015',
            ProductName: cut20(order.productName || 'WMS'),
            Memo: cut20(order.memo ?? ''),
          },
        ],
      };
      // Not idempotent: T-cat assigns a new number on every call, so no retry (a 5xx is reported, never repeated).
      const r = await call<{ FileNo: string; Orders: Array<{ OBTNumber: string; OrderId: string }> }>(
        'PrintOBT',
        payload,
        ctx,
        false,
      );
      if (r.status >= 500 || r.status === 429 || !r.envelope) throw unavailable('PrintOBT', r.status);
      if (r.envelope.IsOK !== 'Y' || !r.envelope.Data)
        throw new AppError('PROVIDER_REFUSED', { status: r.status, message: r.envelope.Message });
      const number = r.envelope.Data.Orders?.find((o) => o.OrderId === order.orderNumber)?.OBTNumber;
      if (!number) throw new AppError('PROVIDER_REFUSED', { status: r.status, message: 'no OBTNumber' });
      const fileNo = r.envelope.Data.FileNo ?? null;
      // From here on the consignment exists: a label that cannot be fetched now never loses the number.
      if (!fileNo) return { consignmentNumber: number, label: null, labelRef: null, labelError: 'no FileNo' };
      try {
        return { consignmentNumber: number, label: await downloadLabel(fileNo, number, ctx), labelRef: fileNo };
      } catch (e) {
        const message =
          e instanceof AppError ? String(e.params.message ?? e.code) : e instanceof Error ? e.message : String(e);
        return { consignmentNumber: number, label: null, labelRef: fileNo, labelError: message };
      }
    },
    async fetchLabel(ref, ctx) {
      if (!ref.labelRef) throw new AppError('PROVIDER_REFUSED', { message: 'no FileNo' });
      return downloadLabel(ref.labelRef, ref.consignmentNumber, ctx);
    },
  };
}
