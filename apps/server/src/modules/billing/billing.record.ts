import { formatTwd, type TLanguage } from '@wms/contracts';
import type { Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { notFound } from '../../platform/errors';
import { queueMail, renderMail } from '../../platform/mail';
import type { TPaymentResult } from '../../platform/providers';
import { tellStatementPaid } from './billing.events';
import { endPeriodicLater } from './billing.periodic';
import * as repo from './billing.repository';
import { systemFor, type TBillingDeps } from './billing.views';

/**
 * Recording a gateway's answer on a payment record, once (a repeated Notify or a second poll changes nothing), with its
 * audit row and the seller's mail; the confirmation job's name and first delays.
 */

/** The confirmation job (billing.jobs.ts), queued by name here: the jobs module imports this one. */
export const billingConfirmJob = 'billing.confirm';
/** When the confirmation job first asks: TapPay answers a charge in seconds; NewebPay's page takes the seller longer. */
export const CONFIRM_TAPPAY_AFTER_S = 30;
export const CONFIRM_NEWEBPAY_AFTER_S = 5 * 60;

type TAfterRecord = (tx: Executor, payment: repo.TPaymentRow, contract: repo.TContractRow) => Promise<void>;

/**
 * Record a gateway's answer on a pending record, once: a record that already left `pending` is answered as it is
 * (a repeated Notify, a second poll). Success clears the overdue mark; a remembered card becomes the renewal method.
 */
export async function recordResult(
  deps: Pick<TBillingDeps, 'db' | 'config' | 'jobs'>,
  paymentId: string,
  result: TPaymentResult,
  opts: { actor?: TActor; after?: TAfterRecord } = {},
): Promise<repo.TPaymentRow> {
  return withTx(deps.db, async (tx) => {
    const payment = await repo.lockPayment(tx, paymentId);
    if (!payment) throw notFound();
    if (payment.status === 'failed' && result.status === 'succeeded' && payment.kind !== 'credit')
      return recordLateSuccess(deps, tx, opts.actor ?? systemFor(payment.customer_id), payment, result);
    if (payment.status !== 'pending') return payment;
    if (result.status === 'pending') {
      if (result.transactionId && !payment.provider_transaction_id)
        return repo.updatePayment(tx, payment.id, { provider_transaction_id: result.transactionId });
      return payment;
    }
    let status = result.status;
    let failure = result.failure ?? null;
    // The gateway's amount must be ours (a Notify for another amount is not a payment of this period).
    if (status === 'succeeded' && result.amount != null && result.amount !== Number(payment.amount)) {
      status = 'failed';
      failure = `amount ${result.amount} ≠ ${Number(payment.amount)}`;
    }
    const updated = await repo.updatePayment(tx, payment.id, {
      status,
      failure,
      provider_transaction_id: result.transactionId ?? payment.provider_transaction_id,
      card_last_four: result.cardLastFour ?? payment.card_last_four,
      paid_at: status === 'succeeded' ? new Date() : null,
    });
    if (!payment.contract_id) {
      // A usage statement's payment: no contract, no period; its success tells the usage module (statementPaid).
      await writeAudit(tx, opts.actor ?? systemFor(payment.customer_id), {
        action: status === 'succeeded' ? 'billing.payment.succeeded' : 'billing.payment.failed',
        entity: 'billing_payment',
        entityId: payment.id,
        customerId: payment.customer_id,
        before: { status: payment.status },
        after: { status, failure, provider_transaction_id: updated.provider_transaction_id, amount: updated.amount },
      });
      if (status === 'succeeded') await tellStatementPaid(deps, tx, updated);
      return updated;
    }
    let contract = (await repo.findContractById(tx, payment.contract_id, true))!;
    if (status === 'succeeded') {
      const changes: Partial<repo.TContractRow> = {};
      if (contract.overdue_since) changes.overdue_since = null;
      if (payment.remember && payment.provider === 'tappay' && contract.card_key_enc) {
        changes.auto_renew = 'tappay';
        // A card now renews: an earlier NewebPay periodic authorisation would charge the same periods again.
        if (contract.newebpay_period_order) {
          await endPeriodicLater(deps, tx, contract);
          changes.newebpay_period_order = null;
          changes.newebpay_period_no = null;
        }
      }
      if (
        payment.kind === 'periodic' &&
        payment.provider === 'newebpay' &&
        contract.newebpay_period_order !== payment.order_number
      ) {
        // A new periodic authorisation replaces the one before it (ended at NewebPay).
        if (contract.newebpay_period_order) await endPeriodicLater(deps, tx, contract);
        changes.auto_renew = 'newebpay';
        changes.newebpay_period_order = payment.order_number;
        changes.newebpay_period_no = result.periodNo ?? null;
      }
      if (Object.keys(changes).length) contract = await repo.updateContract(tx, contract.id, changes);
    }
    await writeAudit(tx, opts.actor ?? systemFor(payment.customer_id), {
      action: status === 'succeeded' ? 'billing.payment.succeeded' : 'billing.payment.failed',
      entity: 'billing_payment',
      entityId: payment.id,
      customerId: payment.customer_id,
      before: { status: payment.status },
      after: {
        status,
        failure,
        provider_transaction_id: updated.provider_transaction_id,
        amount: updated.amount,
      },
    });
    if (status === 'succeeded') await mailSeller(deps, tx, payment.customer_id, 'billing_paid', updated, null);
    if (opts.after) await opts.after(tx, updated, contract);
    return updated;
  });
}

/**
 * The gateway took the money after we had recorded the attempt failed (a payment page paid after we gave it up, a
 * bank's late answer): never lost, never a second payment of a period. It pays its period if that is still free,
 * else it is the seller's credit.
 */
async function recordLateSuccess(
  deps: Pick<TBillingDeps, 'jobs'>,
  tx: Executor,
  actor: TActor,
  payment: repo.TPaymentRow,
  result: TPaymentResult,
): Promise<repo.TPaymentRow> {
  let taken: boolean;
  if (payment.contract_id) {
    await repo.findContractById(tx, payment.contract_id, true);
    taken =
      (await repo.paidPeriodStarts(tx, payment.contract_id)).has(payment.period_start) ||
      (await repo.heldPeriods(tx, payment.contract_id)).has(payment.period_start);
  } else {
    // A statement's: another payment of it paid it (or holds it) meanwhile → this one is the seller's credit.
    const other = await repo.statementPayment(tx, payment.statement_id!);
    taken = !!other && other.id !== payment.id;
  }
  const updated = await repo.updatePayment(tx, payment.id, {
    status: 'succeeded',
    kind: taken ? 'credit' : payment.kind,
    failure: null,
    provider_transaction_id: result.transactionId ?? payment.provider_transaction_id,
    card_last_four: result.cardLastFour ?? payment.card_last_four,
    paid_at: new Date(),
  });
  if (!taken && updated.statement_id) await tellStatementPaid(deps, tx, updated);
  await writeAudit(tx, actor, {
    action: 'billing.payment.late_success',
    entity: 'billing_payment',
    entityId: payment.id,
    customerId: payment.customer_id,
    before: { status: payment.status, failure: payment.failure },
    after: { status: 'succeeded', kind: updated.kind, provider_transaction_id: updated.provider_transaction_id },
  });
  return updated;
}

/** Queue a billing mail to the seller's first user, in their language (sent by platform.mail after the commit). */
export async function mailSeller(
  deps: Pick<TBillingDeps, 'config' | 'jobs'>,
  tx: Executor,
  customerId: string,
  kind: 'billing_paid' | 'billing_failed' | 'billing_overdue',
  payment: repo.TPaymentRow,
  reason: string | null,
): Promise<void> {
  const contact = await repo.billingContact(tx, customerId);
  const customer = await repo.findCustomer(tx, customerId);
  if (!contact) return;
  const lang = (['zh-TW', 'ja', 'en'].includes(contact.language) ? contact.language : 'zh-TW') as TLanguage;
  const mail = renderMail(kind, lang, {
    name: contact.name,
    company: customer?.name ?? '',
    period: `${payment.period_start} ~ ${payment.period_end}`,
    amount: formatTwd(payment.amount),
    provider: payment.provider === 'tappay' ? 'TapPay' : 'NewebPay',
    reason: reason ?? payment.failure ?? '',
    url: deps.config.publicUrl.replace(/\/+$/, ''),
  });
  await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: contact.email, ...mail });
}
