import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { decryptSecret } from '../../platform/crypto';
import type { TAppDeps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { findOrderIdByNumberOrConsignment } from '../outbound';
import { providersByMerchantId } from '../partners';
import * as repo from './carriers.repository';
import { verifyEcpayCheckMacValue } from './providers/ecpay';

/**
 * ECPay's status callback: the seller is the one whose logistics provider (merchant id) has the hash key and IV the
 * CheckMacValue verifies with; the status goes into the order's tracking history (`carrier_events`, the order found by
 * its consignment number = BookingNote, or by its number = MerchantTradeNo; stored once however often ECPay resends)
 * with an audit row, and is answered `1|OK`. Anything that does not verify is refused (401) and changes nothing.
 */
export async function ecpayNotify(deps: TAppDeps, fields: Record<string, string>): Promise<string> {
  const db = deps.database.db;
  const merchantId = fields.MerchantID ?? '';
  const candidates = merchantId ? await providersByMerchantId(db, merchantId) : [];
  const key = deps.config.encryptionKey;
  const verified = candidates.filter(
    (p) =>
      p.hash_key_enc &&
      p.hash_iv_enc &&
      verifyEcpayCheckMacValue(fields, decryptSecret(key, p.hash_key_enc), decryptSecret(key, p.hash_iv_enc)),
  );
  if (!verified.length) throw new AppError('CARRIER_SIGNATURE_INVALID');
  // ECPay's AllPayLogisticsID is unique at ECPay: when a merchant id is on several providers (one seller's two
  // contracts, or sellers sharing an ECPay account), the order whose label has that id is the one; else the first.
  let provider = verified[0]!;
  let labelled: string | null = null;
  if (fields.AllPayLogisticsID) {
    const hit = await repo.findEcpayLabelOwner(
      db,
      fields.AllPayLogisticsID,
      verified.map((p) => p.customer_id),
    );
    if (hit) {
      provider = verified.find((p) => p.customer_id === hit.customerId) ?? provider;
      labelled = hit.orderId;
    }
  }
  await withTx(db, async (tx) => {
    const bookingNote = fields.BookingNote ?? '';
    const orderId =
      labelled ??
      (await findOrderIdByNumberOrConsignment(tx, provider.customer_id, fields.MerchantTradeNo ?? '', bookingNote));
    const event = await repo.insertCarrierEvent(tx, {
      customer_id: provider.customer_id,
      logistics_provider_id: provider.id,
      order_id: orderId ?? null,
      carrier: 'ecpay',
      merchant_trade_no: fields.MerchantTradeNo ?? '',
      logistics_id: fields.AllPayLogisticsID ?? '',
      booking_note: bookingNote,
      status_code: fields.RtnCode ?? '',
      status_text: fields.RtnMsg ?? '',
      status_at: fields.UpdateStatusDate ?? '',
    });
    // A resend of a status already stored: answered 1|OK again, nothing written twice.
    if (!event) return;
    await writeAudit(
      tx,
      { kind: 'system', id: null, customerId: provider.customer_id },
      {
        action: 'ecpay.status',
        entity: orderId ? 'outbound_order' : 'logistics_provider',
        entityId: orderId ?? provider.id,
        customerId: provider.customer_id,
        after: {
          merchant_trade_no: fields.MerchantTradeNo ?? null,
          rtn_code: fields.RtnCode ?? null,
          rtn_msg: fields.RtnMsg ?? null,
          logistics_id: fields.AllPayLogisticsID ?? null,
          booking_note: fields.BookingNote ?? null,
        },
      },
    );
  });
  return '1|OK';
}
