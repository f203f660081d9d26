import { RENEWAL_RETRIES, type TBillingPeriod } from '@wms/contracts';
import { z } from 'zod';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { taipeiToday } from '../../platform/calendar';
import { AppError } from '../../platform/errors';
import { defineJob } from '../../platform/jobs';
import { mailDelivery } from '../../platform/mail';
import type { TPaymentResult } from '../../platform/providers';
import { startPayment } from './billing.charge';
import { confirmPayment } from './billing.notify';
import { cardOf } from './billing.periodic';
import { mailSeller, recordResult } from './billing.record';
import * as repo from './billing.repository';
import { tappayOf } from './billing.views';
import { addDays, duePeriod } from './billing.workflow';

/** Days after a period starts without a NewebPay periodic result before the account is marked overdue. */
const PERIODIC_GRACE_DAYS = 3;

/**
 * One renewal charge of a remembered TapPay card (pay-by-token) for one period. A declined or unanswered charge is
 * recorded (with the gateway's reason), the seller is mailed, and the job throws so the queue retries it with
 * back-off (1 h, 2 h, 4 h); after the last retry the account is marked overdue (a banner; nothing is blocked).
 */
export const billingRenew = defineJob(
  'billing.renew',
  z.object({ contract_id: z.uuid(), period_start: z.iso.date() }),
  async ({ payload, db, services, queue, attempt }) => {
    const deps = { db, config: services.config, jobs: queue, providers: services.providers };
    const contract = await repo.findContractById(db, payload.contract_id);
    if (contract?.auto_renew !== 'tappay') return { skipped: 'no remembered card' };
    const paid = await repo.paidPeriodStarts(db, contract.id);
    if (paid.has(payload.period_start)) return { skipped: 'paid' };
    const card = cardOf(services.config, contract);
    if (!card) return { skipped: 'no remembered card' };
    const provider = tappayOf(deps);
    // A charge of an earlier run whose answer never came: settle it from TapPay's records first.
    const open = await repo.pendingRenewal(db, contract.id, payload.period_start);
    if (open) {
      // Never a second charge while the first one's outcome is unknown: settled from TapPay's record, or retried later.
      const { payment: settled, settled: known } = await confirmPayment(deps, open);
      if (!known) throw new Error(`renewal ${open.order_number}: TapPay does not know its outcome yet; retried`);
      if (settled.status === 'succeeded') return { paid: settled.id };
    }
    const system = { kind: 'system' as const, id: null, customerId: contract.customer_id };
    const { payment } = await withTx(db, (tx) =>
      startPayment(deps, tx, system, contract.customer_id, 'tappay', {
        kind: 'renewal',
        attempt,
        periodStart: payload.period_start,
      }),
    );
    let result: TPaymentResult;
    try {
      result = await provider.charge!(
        {
          orderNumber: payment.order_number,
          amount: Number(payment.amount),
          description: `WMS ${payment.period_start} ~ ${payment.period_end}`,
          source: card,
        },
        { customerId: contract.customer_id, reference: payment.order_number },
      );
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new Error(`TapPay did not answer the renewal ${payment.order_number}; retried`);
    }
    const last = attempt > RENEWAL_RETRIES;
    const recorded = await recordResult(deps, payment.id, result, {
      actor: system,
      after: async (tx, row, c) => {
        if (row.status !== 'failed') return;
        if (last) {
          if (!c.overdue_since) await repo.updateContract(tx, c.id, { overdue_since: new Date() });
          await writeAudit(tx, system, {
            action: 'billing.overdue',
            entity: 'billing_contract',
            entityId: c.id,
            customerId: c.customer_id,
            after: { period_start: row.period_start, failure: row.failure },
          });
        }
        await mailSeller(deps, tx, c.customer_id, last ? 'billing_overdue' : 'billing_failed', row, null);
      },
    });
    queue.kick(mailDelivery.name);
    // TapPay 421: the outcome is unknown; the next run settles it from TapPay's record before charging again.
    if (recorded.status === 'pending') throw new Error(`renewal ${recorded.order_number}: outcome unknown; retried`);
    if (recorded.status === 'failed' && !last)
      throw new Error(`renewal ${recorded.order_number} declined: ${recorded.failure ?? ''}`);
    return { payment: recorded.id, status: recorded.status, attempt };
  },
  { retryLimit: RENEWAL_RETRIES, retryDelaySeconds: 3600, retryBackoff: true },
);

/**
 * Every day at 09:00 (Taipei): queue a renewal for each remembered card whose period has started unpaid (one job per
 * contract and period), and mark overdue a NewebPay periodic authorisation whose period has gone unpaid for
 * PERIODIC_GRACE_DAYS.
 */
export const billingRenewals = defineJob(
  'billing.renewals',
  z.object({}),
  async ({ db, queue, services }) => {
    const today = taipeiToday();
    let queued = 0;
    let overdue = 0;
    for (const contract of await repo.autoRenewContracts(db)) {
      const paid = await repo.paidPeriodStarts(db, contract.id);
      const due = duePeriod(contract.start_date, contract.period as TBillingPeriod, today, paid);
      if (!due || due.start > today) continue;
      if (contract.auto_renew === 'tappay') {
        // After the last retry the account is overdue: no new charges until the seller pays or changes the card.
        if (contract.overdue_since) continue;
        if ((await repo.renewalCount(db, contract.id, due.start)) > 0) continue;
        try {
          await withTx(db, (tx) =>
            queue.enqueue(
              tx,
              billingRenew,
              { contract_id: contract.id, period_start: due.start },
              { customerId: contract.customer_id, singletonKey: `${contract.id}:${due.start}` },
            ),
          );
          queued++;
        } catch (err) {
          if (!(err instanceof AppError && err.code === 'JOB_ALREADY_QUEUED')) throw err;
        }
      } else if (contract.auto_renew === 'newebpay' && !contract.overdue_since) {
        if (addDays(due.start, PERIODIC_GRACE_DAYS) > today) continue;
        await withTx(db, async (tx) => {
          const c = (await repo.findContractById(tx, contract.id, true))!;
          if (c.overdue_since) return;
          await repo.updateContract(tx, c.id, { overdue_since: new Date() });
          const system = { kind: 'system' as const, id: null, customerId: c.customer_id };
          await writeAudit(tx, system, {
            action: 'billing.overdue',
            entity: 'billing_contract',
            entityId: c.id,
            customerId: c.customer_id,
            after: { period_start: due.start, provider: 'newebpay' },
          });
          const { payment } = await startPayment({ jobs: queue }, tx, system, c.customer_id, 'newebpay', {
            kind: 'periodic',
            periodStart: due.start,
          });
          await repo.updatePayment(tx, payment.id, {
            status: 'failed',
            failure: 'no periodic result from NewebPay',
          });
          await mailSeller(
            { config: services.config, jobs: queue },
            tx,
            c.customer_id,
            'billing_overdue',
            payment,
            'NewebPay',
          );
        });
        overdue++;
      }
    }
    if (queued) queue.kick(billingRenew.name);
    if (overdue) queue.kick(mailDelivery.name);
    return { queued, overdue };
  },
  { cron: { schedule: '0 9 * * *', tz: 'Asia/Taipei', payload: {} } },
);

/**
 * Settle one pending payment from its gateway's own record (TapPay transaction/query, NewebPay QueryTradeInfo): paid
 * or failed once the gateway knows; until then the job fails and pg-boss retries it with back-off (30 s, 1 min, 2 min,
 * … about a day and a half in all). Queued with every payment attempt (billing.charge startPayment), in its
 * transaction — so a crash between the gateway's answer and our commit is settled too.
 */
export const billingConfirm = defineJob(
  'billing.confirm',
  z.object({ payment_id: z.uuid() }),
  async ({ payload, db, services, queue }) => {
    const deps = { db, config: services.config, jobs: queue, providers: services.providers };
    const payment = await repo.findPaymentById(db, payload.payment_id);
    if (!payment) return { skipped: 'no such payment' };
    const { payment: after, settled } = await confirmPayment(deps, payment);
    if (!settled) throw new Error(`payment ${payment.order_number}: the gateway does not know its outcome yet`);
    return { payment: after.id, status: after.status };
  },
  { retryLimit: 12, retryDelaySeconds: 30, retryBackoff: true },
);

/**
 * Every hour: a confirmation job for each payment still pending after 10 minutes whose own job is no longer queued
 * (it ran out of retries, or the record predates it) — so no record holds its period forever.
 */
export const billingConfirmSweep = defineJob(
  'billing.confirm-sweep',
  z.object({}),
  async ({ db, queue }) => {
    const stale = await repo.stalePendingPayments(db);
    let queued = 0;
    for (const p of stale) {
      try {
        await withTx(db, (tx) =>
          queue.enqueue(tx, billingConfirm, { payment_id: p.id }, { customerId: p.customer_id, singletonKey: p.id }),
        );
        queued++;
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'JOB_ALREADY_QUEUED')) throw err;
      }
    }
    if (queued) queue.kick(billingConfirm.name);
    return { pending: stale.length, queued };
  },
  { cron: { schedule: '17 * * * *', tz: 'Asia/Taipei', payload: {} } },
);
