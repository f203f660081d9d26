import { z } from 'zod';
import type { TConfig } from '../../config';
import type { Executor } from '../../db/client';
import { writeAudit } from '../../platform/audit';
import { decryptSecret } from '../../platform/crypto';
import { defineOutboxTopic, writeOutbox } from '../../platform/outbox';
import * as repo from './billing.repository';
import { newebpayOf, systemFor, type TBillingDeps } from './billing.views';

/**
 * NewebPay periodic authorisations ("write, then call"): ended at the gateway after the commit that dropped them,
 * through the outbox; and the remembered card of a contract, decrypted for one renewal charge.
 */

const ZEndPeriodic = z.object({
  contract_id: z.uuid(),
  order_number: z.string().min(1).max(60),
  period_no: z.string().min(1).max(60),
});

/**
 * "Write, then call": end a NewebPay periodic authorisation at the gateway after the commit that dropped it (renewal
 * stopped, or replaced by a card or a new authorisation), retried with back-off; a refusal leaves the outbox message
 * failed with NewebPay's answer for a person. The audit row says when NewebPay confirmed it.
 */
export const newebpayPeriodicEnd = defineOutboxTopic(
  'billing.newebpay.period-end',
  ZEndPeriodic,
  async ({ db, message, payload, services }) => {
    await newebpayOf({ config: services.config, providers: services.providers }).endPeriodic!(
      { orderNumber: payload.order_number, periodNo: payload.period_no },
      { customerId: message.customer_id, reference: message.id },
    );
    await writeAudit(db, systemFor(message.customer_id!), {
      action: 'billing.periodic.ended',
      entity: 'billing_contract',
      entityId: payload.contract_id,
      customerId: message.customer_id,
      after: { order_number: payload.order_number, period_no: payload.period_no },
    });
    return { ended: payload.order_number };
  },
);

/**
 * A later charge names its authorisation's PeriodNo. The contract's own authorisation keeps it if it has none yet
 * (authorised before PeriodNo was stored, so nothing could end it). An authorisation the contract no longer holds
 * (dropped while its PeriodNo was unknown) should not charge at all: it is ended now.
 */
export async function keepOrEndAuthorisation(
  deps: Pick<TBillingDeps, 'jobs'>,
  tx: Executor,
  contract: repo.TContractRow,
  orderNumber: string,
  periodNo: string,
) {
  if (contract.newebpay_period_order === orderNumber) {
    if (!contract.newebpay_period_no) await repo.updateContract(tx, contract.id, { newebpay_period_no: periodNo });
    return;
  }
  await endPeriodicLater(deps, tx, { ...contract, newebpay_period_order: orderNumber, newebpay_period_no: periodNo });
}

/** In the caller's transaction: queue the end of the contract's NewebPay periodic authorisation at the gateway. */
export async function endPeriodicLater(deps: Pick<TBillingDeps, 'jobs'>, tx: Executor, contract: repo.TContractRow) {
  if (!contract.newebpay_period_order || !contract.newebpay_period_no) return;
  await writeOutbox(
    tx,
    deps.jobs,
    newebpayPeriodicEnd,
    { contract_id: contract.id, order_number: contract.newebpay_period_order, period_no: contract.newebpay_period_no },
    { customerId: contract.customer_id, idempotencyKey: `newebpay.period-end:${contract.newebpay_period_order}` },
  );
}

/** The remembered card of a contract, decrypted for one charge (never logged, never answered). */
export function cardOf(config: TConfig, contract: repo.TContractRow): { cardKey: string; cardToken: string } | null {
  if (!contract.card_key_enc || !contract.card_token_enc) return null;
  return {
    cardKey: decryptSecret(config.encryptionKey, contract.card_key_enc),
    cardToken: decryptSecret(config.encryptionKey, contract.card_token_enc),
  };
}
