import {
  type TCorrectionInput,
  type TDispute,
  type TDisputeInput,
  type TLanguage,
  type TStatement,
  type TUsageEvent,
  type TUsageKind,
  ZCorrectionInput,
} from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db, Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import type { TActor } from '../../platform/auth';
import { taipeiToday } from '../../platform/calendar';
import { AppError, notFound } from '../../platform/errors';
import type { JobQueue } from '../../platform/jobs';
import { mailDelivery } from '../../platform/mail';
import { statementPayment } from '../billing';
import { answerTicketIn, createTicketIn } from '../support';
import * as disputeRepo from './usage.disputes.repository';
import * as repo from './usage.repository';
import { fromUnits, toEvent, toUnits } from './usage.service';
import { issueIn, voidIn } from './usage.statements';
import * as statementRepo from './usage.statements.repository';

/**
 * Disputes and corrections (issue #35). A seller disputes a statement line (or one of its events): a support request
 * is filed with it, in the same transaction. The staff answer with a correction — a new charge event referencing the
 * disputed one (events are immutable), its quantity and amount the difference — which lands on the seller's next
 * draft, or (`reissue`) on the disputed month issued again: the statement voided and re-issued in the same
 * transaction. Or they reject it with an answer. Each step is in the audit log.
 */

export interface TDisputeDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
}

function toDispute(row: disputeRepo.TDisputeRow, correction: repo.TChargeRow | null): TDispute {
  return {
    id: row.id,
    statement_id: row.statement_id,
    kind: row.kind as TUsageKind,
    event_id: row.event_id,
    ticket_id: row.ticket_id,
    reason: row.reason,
    status: row.status as TDispute['status'],
    answer: row.answer,
    correction: correction ? toEvent(correction) : null,
    created_at: row.created_at.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
  };
}

/** The seller disputes a line of one of its statements: the dispute and its support request, in one transaction. */
export async function disputeLine(
  deps: TDisputeDeps,
  actor: Extract<TActor, { kind: 'user' }>,
  statementId: string,
  customerId: string,
  input: TDisputeInput,
): Promise<TDispute> {
  const out = await withTx(deps.db, async (tx) => {
    const found = await statementRepo.findStatement(tx, statementId, customerId);
    if (!found) throw notFound();
    const s = found.statement;
    if (s.status === 'void') throw new AppError('INVALID_STATUS_TRANSITION');
    const line = s.lines.find((l) => l.kind === input.kind);
    if (!line) throw new AppError('INVALID_FIELD', { field: 'kind' });
    let event: repo.TChargeRow | null = null;
    if (input.event_id) {
      event = await repo.findCharge(tx, input.event_id, customerId);
      if (!event || !statementRepo.isBilledOn(event, s) || event.kind !== input.kind)
        throw new AppError('INVALID_FIELD', { field: 'event_id' });
    }
    const ticket = await createTicketIn(deps, tx, actor, {
      kind: 'request',
      subject: `帳單異議 Dispute：${s.number} ${input.kind}${event ? ` ${event.document_number}` : ''}`.slice(0, 200),
      body: [
        `對帳單 Statement：${s.number}（${s.month}）`,
        `項目 Line：${input.kind}（${line.events} / ${line.quantity} / TWD ${fromUnits(toUnits(line.amount))}）`,
        event
          ? `事件 Event：${event.document_number} ${event.day} × ${event.quantity} = TWD ${fromUnits(toUnits(event.amount))}`
          : '',
        `原因 Reason：${input.reason}`,
      ]
        .filter(Boolean)
        .join('\n'),
    });
    const row = await disputeRepo.insertDispute(tx, {
      customer_id: customerId,
      statement_id: s.id,
      kind: input.kind,
      event_id: event?.id ?? null,
      ticket_id: ticket.id,
      reason: input.reason,
      created_by: actor.id,
    });
    await writeAudit(tx, actor, {
      action: 'usage.dispute.open',
      entity: 'usage_dispute',
      entityId: row.id,
      customerId,
      after: { statement: s.number, kind: input.kind, event: event?.document_number ?? null, ticket: ticket.id },
    });
    return toDispute(row, null);
  });
  deps.jobs.kick(mailDelivery.name);
  return out;
}

export async function listDisputes(
  deps: Pick<TDisputeDeps, 'db'>,
  statementId: string,
  customerId?: string,
): Promise<{ results: TDispute[] }> {
  if (!(await statementRepo.findStatement(deps.db, statementId, customerId))) throw notFound();
  const rows = await disputeRepo.statementDisputes(deps.db, statementId);
  return { results: rows.map((r) => toDispute(r.dispute, r.correction)) };
}

/** The staff's answer as a reply on the dispute's support request, in the language of the seller who filed it. */
const ANSWER: Record<
  TLanguage,
  { corrected: string; rejected: string; reissued: (n: string) => string; next: (day: string) => string }
> = {
  'zh-TW': {
    corrected: '帳單異議已更正',
    rejected: '帳單異議未予更正',
    reissued: (n) => `原對帳單已作廢，重開為 ${n}`,
    next: (day) => `更正列入 ${day} 起的帳單`,
  },
  ja: {
    corrected: '請求への異議を訂正しました',
    rejected: '請求への異議は訂正されませんでした',
    reissued: (n) => `元の請求書は無効とし、${n} として再発行しました`,
    next: (day) => `訂正は ${day} 以降の請求書に計上されます`,
  },
  en: {
    corrected: 'Your dispute was corrected',
    rejected: 'Your dispute was not corrected',
    reissued: (n) => `The statement was voided and re-issued as ${n}`,
    next: (day) => `The correction is on the statement from ${day}`,
  },
};

const firstOfNextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
};

async function lockOpen(tx: Executor, id: string) {
  const dispute = await disputeRepo.findDispute(tx, id, true);
  if (!dispute) throw notFound();
  if (dispute.status !== 'open') throw new AppError('DISPUTE_CLOSED', { status: dispute.status });
  return dispute;
}

/**
 * The staff answer a dispute with a correction event, in one transaction: the new event (once per dispute) references
 * the disputed one, priced as it was (its card and unit price), its quantity and amount the difference. Dated in the
 * month after the statement's (or today, when later): the seller's next draft. With `reissue` it is dated on the
 * disputed event's day instead, and the statement (issued, not paid, no payment in flight) is voided and its month
 * issued again with it.
 */
export async function correctDispute(
  deps: TDisputeDeps,
  actor: TActor,
  id: string,
  input: TCorrectionInput,
): Promise<{ dispute: TDispute; correction: TUsageEvent; statement: TStatement | null }> {
  const body = ZCorrectionInput.parse(input);
  const out = await withTx(deps.db, async (tx) => {
    const dispute = await lockOpen(tx, id);
    const found = (await statementRepo.findStatement(tx, dispute.statement_id, undefined, true))!;
    const s = found.statement;
    const old = await repo.findCharge(tx, body.event_id, dispute.customer_id);
    if (!old || !statementRepo.isBilledOn(old, s)) throw new AppError('INVALID_FIELD', { field: 'event_id' });
    if (toUnits(body.amount) === 0n && body.quantity === 0) throw new AppError('INVALID_FIELD', { field: 'amount' });
    if (body.reissue) {
      if (s.status === 'paid') throw new AppError('STATEMENT_ALREADY_PAID', { number: s.number });
      if (s.status !== 'issued') throw new AppError('INVALID_STATUS_TRANSITION');
      const held = await statementPayment(tx, s.id);
      if (held)
        throw new AppError('STATEMENT_PAYMENT_IN_PROGRESS', { number: s.number, order_number: held.order_number });
      // The month is issued again in this transaction: the seller's charge lock, exclusive from the start.
      await repo.lockCharges(tx, [s.customer_id], 'exclusive');
    }
    const next = firstOfNextMonth(s.month);
    const today = taipeiToday();
    const day = body.reissue ? old.day : today > next ? today : next;
    const correction = await repo.insertCorrection(tx, {
      customer_id: dispute.customer_id,
      kind: old.kind,
      source_type: 'correction',
      source_id: dispute.id,
      document_number: old.document_number,
      occurred_at: new Date(),
      day,
      quantity: body.quantity,
      unit_price: old.unit_price,
      amount: body.amount,
      rate_card_id: old.rate_card_id,
      corrects_id: old.id,
    });
    if (!correction) throw new AppError('DISPUTE_CLOSED', { status: 'corrected' });
    const resolved = await disputeRepo.updateDispute(tx, dispute.id, {
      status: 'corrected',
      answer: body.reason,
      correction_id: correction.id,
      resolved_by: actor.kind === 'user' ? actor.id : null,
      resolved_at: new Date(),
    });
    await writeAudit(tx, actor, {
      action: 'usage.charge.correct',
      entity: 'usage_charge',
      entityId: correction.id,
      customerId: dispute.customer_id,
      before: { event: old.id, document: old.document_number, quantity: old.quantity, amount: old.amount },
      after: { corrects: old.id, day, quantity: body.quantity, amount: body.amount, reason: body.reason },
    });
    await writeAudit(tx, actor, {
      action: 'usage.dispute.corrected',
      entity: 'usage_dispute',
      entityId: dispute.id,
      customerId: dispute.customer_id,
      before: { status: 'open' },
      after: { status: 'corrected', correction: correction.id, reissue: body.reissue },
    });
    let statement: TStatement | null = null;
    if (body.reissue) {
      await voidIn(tx, actor, s.id, `Correction 更正：${body.reason}`.slice(0, 500));
      statement = await issueIn(tx, actor, { customer_id: s.customer_id, month: s.month });
    }
    const what = `${old.document_number} ${old.kind}: ${body.quantity} / TWD ${fromUnits(toUnits(body.amount))}`;
    await answerTicketIn(deps, tx, actor, dispute.ticket_id, {
      status: 'done',
      body: (lang) => {
        const t = ANSWER[lang];
        return [t.corrected, what, statement ? t.reissued(statement.number) : t.next(day), body.reason].join('\n');
      },
    });
    return { dispute: toDispute(resolved, correction), correction: toEvent(correction), statement };
  });
  deps.jobs.kick(mailDelivery.name);
  return out;
}

/** The staff reject a dispute with their answer. */
export async function rejectDispute(deps: TDisputeDeps, actor: TActor, id: string, answer: string): Promise<TDispute> {
  const out = await withTx(deps.db, async (tx) => {
    const dispute = await lockOpen(tx, id);
    const row = await disputeRepo.updateDispute(tx, id, {
      status: 'rejected',
      answer,
      resolved_by: actor.kind === 'user' ? actor.id : null,
      resolved_at: new Date(),
    });
    await writeAudit(tx, actor, {
      action: 'usage.dispute.rejected',
      entity: 'usage_dispute',
      entityId: id,
      customerId: dispute.customer_id,
      before: { status: 'open' },
      after: { status: 'rejected', answer },
    });
    await answerTicketIn(deps, tx, actor, dispute.ticket_id, {
      status: 'done',
      body: (lang) => [ANSWER[lang].rejected, answer].join('\n'),
    });
    return toDispute(row, null);
  });
  deps.jobs.kick(mailDelivery.name);
  return out;
}
