/**
 * Use cases of printing carrier labels: the signed ECPay print forms, and the one PDF of the selected orders' labels.
 */
import type { TEcpayLabelForm, TEcpayLabelForms } from '@wms/contracts';
import { PDFDocument } from 'pdf-lib';
import { allOf, type Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { AppError, notFound } from '../../platform/errors';
import { findOrders } from '../outbound';
import { providerCredentials, providersByIds } from '../partners';
import { shopeeLabel, shopeeOrderOf } from '../shopee';
import * as repo from './carriers.repository';
import { ECPAY_PRINT_PATHS, ecpayLabelForm, type TEcpayPrintKind } from './providers/ecpay';
import type { TTcatSetting } from './providers/tcat';

/** A label belongs to the number it was made for: a number changed by hand since has no carrier label. */
function labelAtEcpay(
  label: repo.TCarrierLabelRow | null,
  consignment: string | null,
): label is repo.TCarrierLabelRow & { file_no: string } {
  return Boolean(label && label.carrier === 'ecpay' && label.file_no && label.consignment_number === consignment);
}

/**
 * The signed ECPay print forms of the seller's selected orders whose label is at ECPay (`labelAtEcpay`): one form per
 * ECPay logistics provider (each signs with its own MerchantID, HashKey and HashIV), the AllPayLogisticsIDs in the
 * order given. Nothing is written and ECPay is not called here: the browser posts the form (a user's click). The other
 * selected orders come back in `others` (for the PDF of `printLabels`).
 */
/** The seller's selected orders (unique, in the order given) with their provider and stored label, keyed by id. */
async function ordersWithLabels(db: Db, customerId: string, orderIds: string[]) {
  const ids = [...new Set(orderIds)];
  const orders = await findOrders(db, customerId, ids);
  const providerIds = [...new Set(orders.flatMap((o) => (o.logistics_provider_id ? [o.logistics_provider_id] : [])))];
  const [labels, stores, providers] = await allOf(db, [
    () => repo.labelsOf(db, customerId, ids),
    () => repo.cvsStoresOf(db, customerId, ids),
    () => providersByIds(db, customerId, providerIds),
  ]);
  const labelOf = new Map(labels.map((l) => [l.order_id, l]));
  const storeOf = new Map(stores.map((r) => [r.order_id, r]));
  const nameOf = new Map(providers.map((p) => [p.id, p.name]));
  const rows = orders.map((o) => ({
    id: o.id,
    number: o.number,
    providerId: o.logistics_provider_id,
    providerName: o.logistics_provider_id ? (nameOf.get(o.logistics_provider_id) ?? null) : null,
    consignment: o.consignment_number,
    label: labelOf.get(o.id) ?? null,
    store: storeOf.get(o.id) ?? null,
  }));
  return { ids, byId: new Map(rows.map((r) => [r.id, r])) };
}

export async function ecpayLabelForms(deps: TAppDeps, actor: TActor, orderIds: string[]): Promise<TEcpayLabelForms> {
  const customerId = tenantOf(actor);
  const db = deps.database.db;
  const { ids, byId } = await ordersWithLabels(db, customerId, orderIds);
  // One form per provider and print page; a store-to-store (C2C) label is one consignment per form.
  type TGroup = {
    providerId: string;
    name: string;
    kind: TEcpayPrintKind;
    cvs: { paymentNo: string | null; validationNo: string | null } | null;
    orders: Array<{ id: string; number: string; ref: string }>;
  };
  const groups = new Map<string, TGroup>();
  const others: TEcpayLabelForms['others'] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) throw notFound();
    if (!row.providerId || !labelAtEcpay(row.label, row.consignment)) {
      others.push({ id: row.id, number: row.number });
      continue;
    }
    const sub = row.store?.subtype ?? '';
    const kind: TEcpayPrintKind = sub in ECPAY_PRINT_PATHS ? (sub as TEcpayPrintKind) : 'HOME_B2C';
    const key = kind === 'HOME_B2C' ? `${row.providerId}:${kind}` : `${row.providerId}:${kind}:${row.id}`;
    const group = groups.get(key) ?? {
      providerId: row.providerId,
      name: row.providerName ?? '',
      kind,
      cvs: row.store ? { paymentNo: row.store.payment_no, validationNo: row.store.validation_no } : null,
      orders: [],
    };
    group.orders.push({ id: row.id, number: row.number, ref: row.label.file_no });
    groups.set(key, group);
  }
  const forms: TEcpayLabelForm[] = [];
  const keys = new Map<string, Awaited<ReturnType<typeof providerCredentials>>>();
  for (const group of groups.values()) {
    const creds =
      keys.get(group.providerId) ??
      (await providerCredentials(db, deps.config.encryptionKey, customerId, group.providerId));
    keys.set(group.providerId, creds);
    if (!creds.merchantId || !creds.hashKey || !creds.hashIv)
      throw new AppError('CARRIER_NOT_CONFIGURED', { provider: group.name });
    const form = ecpayLabelForm(
      {
        baseUrl: deps.config.ecpayLogisticsUrl,
        merchantId: creds.merchantId,
        hashKey: creds.hashKey,
        hashIv: creds.hashIv,
      },
      group.kind,
      [...new Set(group.orders.map((o) => o.ref))],
      group.cvs,
    );
    forms.push({
      provider: { id: group.providerId, name: group.name },
      ...form,
      orders: group.orders.map((o) => ({ id: o.id, number: o.number })),
    });
  }
  return { forms, others };
}

/**
 * The carriers' labels of the seller's selected orders as one PDF, pages in the order given. A label that could not
 * be fetched with its number is fetched now (T-cat DownloadOBT with the stored FileNo; outside any transaction) and
 * stored with an audit row. Orders without a label are reported by number, not silently left out; orders whose label
 * is at ECPay (an HTML page the browser prints: `ecpayLabelForms`) are reported apart, in `ecpay`. No PDF label at all:
 * LABELS_AT_ECPAY when some are at ECPay, else LABEL_NOT_AVAILABLE.
 */
export async function printLabels(
  deps: TAppDeps,
  actor: TActor,
  orderIds: string[],
): Promise<{ pdf: Buffer; pages: number; missing: string[]; ecpay: string[] }> {
  const customerId = tenantOf(actor);
  const db = deps.database.db;
  const { ids, byId } = await ordersWithLabels(db, customerId, orderIds);
  const out = await PDFDocument.create();
  const missing: string[] = [];
  const ecpay: string[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) throw notFound();
    const label = row.label;
    if (row.providerId && labelAtEcpay(label, row.consignment)) {
      ecpay.push(row.number);
      continue;
    }
    // A label belongs to the number it was made for: a number changed by hand since has no carrier label.
    if (!label || label.consignment_number !== row.consignment) {
      missing.push(row.number);
      continue;
    }
    let content = label.content;
    if (!content && label.file_no && label.carrier === 'shopee') {
      // Shopee was still making the label at consignment time: ask again now.
      const shopee = await shopeeOrderOf(db, customerId, id);
      if (shopee) {
        const got = await shopeeLabel(deps, null, shopee, label.consignment_number);
        content = got.label;
        await withTx(db, async (tx) => {
          await repo.updateCarrierLabel(
            tx,
            customerId,
            id,
            content ? { content, error: null, fetched_at: new Date() } : { error: got.error },
          );
          await writeAudit(tx, actor, {
            action: 'carrier_label.fetch',
            entity: 'outbound_order',
            entityId: id,
            after: { consignment_number: label.consignment_number, stored: Boolean(content), error: got.error },
          });
        });
      }
    }
    if (!content && label.file_no && label.carrier === 'tcat' && row.providerId) {
      const creds = await providerCredentials(db, deps.config.encryptionKey, customerId, row.providerId);
      if (creds.merchantId && creds.hashKey) {
        const carrier = deps.providers.resolve('carrier', 'tcat', {
          baseUrl: deps.config.tcatEgsUrl,
          customerId: creds.merchantId,
          customerToken: creds.hashKey,
        } satisfies TTcatSetting);
        let error: string | null = null;
        try {
          content =
            (await carrier.fetchLabel?.(
              { consignmentNumber: label.consignment_number, labelRef: label.file_no },
              { customerId, reference: id },
            )) ?? null;
        } catch (e) {
          error =
            e instanceof AppError ? String(e.params.message ?? e.code) : e instanceof Error ? e.message : String(e);
        }
        await withTx(db, async (tx) => {
          await repo.updateCarrierLabel(
            tx,
            customerId,
            id,
            content ? { content, error: null, fetched_at: new Date() } : { error },
          );
          await writeAudit(tx, actor, {
            action: 'carrier_label.fetch',
            entity: 'outbound_order',
            entityId: id,
            after: { consignment_number: label.consignment_number, stored: Boolean(content), error },
          });
        });
      }
    }
    if (!content) {
      missing.push(row.number);
      continue;
    }
    const doc = await PDFDocument.load(content);
    for (const page of await out.copyPages(doc, doc.getPageIndices())) out.addPage(page);
  }
  if (out.getPageCount() === 0) {
    if (ecpay.length) throw new AppError('LABELS_AT_ECPAY', { orders: ecpay.slice(0, 20).join(', ') });
    throw new AppError('LABEL_NOT_AVAILABLE');
  }
  return { pdf: Buffer.from(await out.save()), pages: out.getPageCount(), missing, ecpay };
}
