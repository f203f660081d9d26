import type { TStatement, TUsageEvent } from '@wms/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_logs, support_tickets, users } from '../../../db/schema';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';
import { outboundWorld, type TWorld } from '../../outbound/__tests__/factories';
import { eventsDelivered, receiveUnits } from './work';

/**
 * Disputes and corrections (issue #35): the seller disputes a statement line (one event of it) → a support request
 * linked to it; the staff answer with a correction — a new event referencing the disputed one, which stays as it was
 * — on the statement issued again, or on the next month's draft; or reject it. Every step in the audit log.
 */

let ctx: TTestContext;
let staff: string;
let w: TWorld;
let other: TWorld;
let s1: TStatement;
let unitEvent: TUsageEvent;
let receiptEvent: TUsageEvent;

const month = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 7);
const [yy, mm] = month.split('-').map(Number) as [number, number];
const nextMonth = new Date(Date.UTC(yy, mm, 1)).toISOString().slice(0, 7);

const delivered = () => eventsDelivered(ctx);

const audits = async (action: string) =>
  (await ctx.deps.database.db.select().from(audit_logs).where(eq(audit_logs.action, action))).length;

beforeAll(async () => {
  ctx = await createTestContext({ USAGE_ISSUE_OPEN_MONTH: '1' });
  staff = (await ctx.newEmployee()).token;
  w = await outboundWorld(ctx, { name: 'Disputing seller' });
  other = await outboundWorld(ctx, { name: 'Other seller' });
  const card = await ctx.api.usageRoutes.crmCreateRateCard({
    body: {
      customer_id: w.customerId,
      valid_from: '2020-01-01',
      rates: { receiving_receipt: '1000', receiving_unit: '2.5' },
    },
    token: staff,
  });
  expect(card.statusCode, card.body).toBe(201);
  await receiveUnits(ctx, w, 10, 10);
  await delivered();
  const issued = await ctx.api.usageRoutes.crmIssueStatement({
    body: { customer_id: w.customerId, month },
    token: staff,
  });
  expect(issued.statusCode, issued.body).toBe(201);
  s1 = issued.json();
  expect(s1.total).toBe('1076');
  const events = (
    await ctx.api.usageRoutes.statementEvents({ params: { id: s1.id }, query: {}, token: w.token })
  ).json().results;
  unitEvent = events.find((e) => e.kind === 'receiving_unit')!;
  receiptEvent = events.find((e) => e.kind === 'receiving_receipt')!;
});
afterAll(() => ctx?.close());

describe(`disputes and corrections (${TEST_ENGINE})`, () => {
  let disputeId: string;
  let ticketId: string;
  let s2: TStatement;

  /** The dispute's support request as its seller sees it: status and the staff's replies. */
  const ticketOf = async (id: string) => {
    const res = await ctx.api.supportRoutes.getTicket({ params: { id }, token: w.token });
    expect(res.statusCode, res.body).toBe(200);
    const t = res.json();
    return { status: t.status, staff: t.replies.filter((r) => r.side === 'staff').map((r) => r.body) };
  };

  it('the seller disputes one event of a line: a support request names it; another seller cannot', async () => {
    const res = await ctx.api.usageRoutes.disputeLine({
      params: { id: s1.id },
      body: { kind: 'receiving_unit', event_id: unitEvent.id, reason: '只收到 8 件 only 8 accepted' },
      token: w.token,
    });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    disputeId = d.id;
    ticketId = d.ticket_id;
    expect(d).toMatchObject({ status: 'open', kind: 'receiving_unit', event_id: unitEvent.id, correction: null });
    const ticket = await ctx.api.supportRoutes.getTicket({ params: { id: d.ticket_id }, token: w.token });
    expect(ticket.statusCode, ticket.body).toBe(200);
    expect(ticket.json().subject).toContain(s1.number);
    expect(ticket.json().body).toContain('only 8 accepted');
    expect(ticket.json().body).toContain(unitEvent.document_number);

    const theirs = await ctx.api.usageRoutes.disputeLine({
      params: { id: s1.id },
      body: { kind: 'receiving_unit', reason: 'x' },
      token: other.token,
    });
    expect(theirs.statusCode).toBe(404);
    // An event of another line is not this line's.
    const wrong = await ctx.api.usageRoutes.disputeLine({
      params: { id: s1.id },
      body: { kind: 'receiving_unit', event_id: receiptEvent.id, reason: 'x' },
      token: w.token,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'event_id' } });
    const listed = await ctx.api.usageRoutes.statementDisputes({ params: { id: s1.id }, token: w.token });
    expect(listed.json().results.map((x) => x.id)).toEqual([d.id]);
    expect(
      (await ctx.api.usageRoutes.statementDisputes({ params: { id: s1.id }, token: other.token })).statusCode,
    ).toBe(404);
  });

  it('the staff correct it on the statement issued again: a new event references the old one, which is unchanged', async () => {
    const res = await ctx.api.usageRoutes.crmCorrectDispute({
      params: { id: disputeId },
      body: { event_id: unitEvent.id, quantity: -2, amount: '-5', reason: '2 units refused at receipt', reissue: true },
      token: staff,
    });
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out.correction).toMatchObject({
      kind: 'receiving_unit',
      source_type: 'correction',
      corrects_id: unitEvent.id,
      quantity: -2,
      amount: '-5',
      unit_price: '2.5',
      day: unitEvent.day,
    });
    expect(out.dispute).toMatchObject({ status: 'corrected', answer: '2 units refused at receipt' });
    s2 = out.statement!;
    // 1,000 + 25 − 5 = 1,020; tax 51; a new number, the old statement void with the reason.
    expect(s2).toMatchObject({ month, status: 'issued', subtotal: '1020', tax: '51', total: '1071' });
    expect(s2.number).not.toBe(s1.number);
    expect(s2.lines.find((l) => l.kind === 'receiving_unit')).toEqual({
      kind: 'receiving_unit',
      events: 2,
      quantity: 8,
      amount: '20',
    });
    const old = (await ctx.api.usageRoutes.statement({ params: { id: s1.id }, token: w.token })).json();
    expect(old.status).toBe('void');
    expect(old.void_reason).toContain('2 units refused at receipt');
    // The drill-down shows both events; the disputed one is as it was.
    const events = (
      await ctx.api.usageRoutes.statementEvents({
        params: { id: s2.id },
        query: { kind: 'receiving_unit' },
        token: w.token,
      })
    ).json().results;
    expect(events.map((e) => [e.id, e.quantity, e.amount, e.corrects_id])).toEqual([
      [unitEvent.id, 10, '25', null],
      [out.correction.id, -2, '-5', unitEvent.id],
    ]);
    // Answered once: a second answer (a double click, another staff member) is refused.
    const again = await ctx.api.usageRoutes.crmCorrectDispute({
      params: { id: disputeId },
      body: { event_id: unitEvent.id, quantity: -2, amount: '-5', reason: 'again', reissue: false },
      token: staff,
    });
    expect(again.statusCode).toBe(409);
    expect(again.error()).toMatchObject({ code: 'DISPUTE_CLOSED', params: { status: 'corrected' } });
    // The answer is a staff reply on the dispute's support request (in the seller's language), which is done; once.
    const ticket = await ticketOf(ticketId);
    expect(ticket.status).toBe('done');
    expect(ticket.staff).toHaveLength(1);
    expect(ticket.staff[0]).toContain('帳單異議已更正');
    expect(ticket.staff[0]).toContain(`${unitEvent.document_number} receiving_unit: -2 / TWD -5`);
    expect(ticket.staff[0]).toContain(`重開為 ${s2.number}`);
    expect(ticket.staff[0]).toContain('2 units refused at receipt');
    expect(await audits('usage.charge.correct')).toBe(1);
    expect(await audits('usage.dispute.open')).toBe(1);
    expect(await audits('usage.dispute.corrected')).toBe(1);
  });

  it('a correction without re-issue lands on the next month’s draft; a rejected dispute cannot be corrected', async () => {
    const d = await ctx.api.usageRoutes.disputeLine({
      params: { id: s2.id },
      body: { kind: 'receiving_receipt', reason: 'one receipt was a re-delivery' },
      token: w.token,
    });
    expect(d.statusCode, d.body).toBe(201);
    const res = await ctx.api.usageRoutes.crmCorrectDispute({
      params: { id: d.json().id },
      body: { event_id: receiptEvent.id, amount: '-400', reason: 'goodwill', reissue: false },
      token: staff,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().statement).toBeNull();
    expect(res.json().correction.day).toBe(`${nextMonth}-01`);
    // The issued statement is unchanged; next month's draft carries the credit (its tax credited too).
    expect((await ctx.api.usageRoutes.statement({ params: { id: s2.id }, token: w.token })).json().total).toBe('1071');
    const draft = (await ctx.api.usageRoutes.usage({ query: { month: nextMonth }, token: w.token })).json();
    expect(draft).toMatchObject({ subtotal: '-400', tax: '-20', total: '-420' });
    expect(draft.lines).toEqual([{ kind: 'receiving_receipt', events: 1, quantity: 0, amount: '-400' }]);

    // The seller reads Japanese from here on: the next answer is written in it.
    await ctx.deps.database.db.update(users).set({ language: 'ja' }).where(eq(users.id, w.seller.userId));
    const d3 = await ctx.api.usageRoutes.disputeLine({
      params: { id: s2.id },
      body: { kind: 'receiving_unit', reason: 'still wrong' },
      token: w.token,
    });
    const rejected = await ctx.api.usageRoutes.crmRejectDispute({
      params: { id: d3.json().id },
      body: { answer: 'the receipt shows 8 accepted after the correction' },
      token: staff,
    });
    expect(rejected.json()).toMatchObject({ status: 'rejected' });
    const t3 = await ticketOf(d3.json().ticket_id);
    expect(t3).toEqual({
      status: 'done',
      staff: ['請求への異議は訂正されませんでした\nthe receipt shows 8 accepted after the correction'],
    });
    // The first answer's reply named the next month's statement (the correction without re-issue).
    expect((await ticketOf(d.json().ticket_id)).staff[0]).toContain(`更正列入 ${nextMonth}-01 起的帳單`);
    const late = await ctx.api.usageRoutes.crmCorrectDispute({
      params: { id: d3.json().id },
      body: { event_id: unitEvent.id, amount: '-1', reason: 'x' },
      token: staff,
    });
    expect(late.error()).toMatchObject({ code: 'DISPUTE_CLOSED', params: { status: 'rejected' } });
    const crm = await ctx.api.usageRoutes.crmStatementDisputes({ params: { id: s2.id }, token: staff });
    expect(crm.json().results.map((x) => x.status)).toEqual(['corrected', 'rejected']);
  });

  it('the answer and its reply are one transaction: a request that cannot be answered leaves the dispute open', async () => {
    const d = await ctx.api.usageRoutes.disputeLine({
      params: { id: s2.id },
      body: { kind: 'receiving_receipt', event_id: receiptEvent.id, reason: 'charged twice?' },
      token: w.token,
    });
    expect(d.statusCode, d.body).toBe(201);
    // Its support request is gone (as if removed underneath): the answer has nowhere to go.
    await ctx.deps.database.db.delete(support_tickets).where(eq(support_tickets.id, d.json().ticket_id));
    const before = {
      corrections: await audits('usage.charge.correct'),
      rejects: await audits('usage.dispute.rejected'),
    };
    const corrected = await ctx.api.usageRoutes.crmCorrectDispute({
      params: { id: d.json().id },
      body: { event_id: receiptEvent.id, amount: '-1', reason: 'x', reissue: true },
      token: staff,
    });
    expect(corrected.statusCode).toBe(404);
    const rejected = await ctx.api.usageRoutes.crmRejectDispute({
      params: { id: d.json().id },
      body: { answer: 'no' },
      token: staff,
    });
    expect(rejected.statusCode).toBe(404);
    // Nothing of either answer stayed: the dispute is open, no correction event, the statement not re-issued.
    const listed = (await ctx.api.usageRoutes.crmStatementDisputes({ params: { id: s2.id }, token: staff })).json();
    expect(listed.results.find((x) => x.id === d.json().id)).toMatchObject({ status: 'open', correction: null });
    expect((await ctx.api.usageRoutes.statement({ params: { id: s2.id }, token: w.token })).json().status).toBe(
      'issued',
    );
    expect(await audits('usage.charge.correct')).toBe(before.corrections);
    expect(await audits('usage.dispute.rejected')).toBe(before.rejects);
  });

  it('the partner API shows a correction with the document of the event it corrects (its enum kept compatible)', async () => {
    const created = await ctx.api.apiSettingRoutes.createApiSetting({
      body: { name: 'ERP disputes', kind: 'partner' },
      token: w.token,
    });
    expect(created.statusCode, created.body).toBe(201);
    const enabled = await ctx.api.apiSettingRoutes.enableApiSetting({
      params: { id: created.json().id },
      token: w.token,
    });
    const apiKey = (enabled.json() as { api_key: string }).api_key;
    const res = await ctx.api.partnerApiRoutes.apiStatementEvents({
      params: { id: s2.id },
      query: { kind: 'receiving_unit' },
      apiKey,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [orig, correction] = res.json().results;
    expect(correction).toMatchObject({
      source_type: orig!.source_type,
      source_id: orig!.source_id,
      corrects_id: orig!.id,
      amount: '-5',
    });
  });
});
