import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { createTestContext, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
let seller: Awaited<ReturnType<TTestContext['newCustomer']>>;
let other: Awaited<ReturnType<TTestContext['newCustomer']>>;
let staff: Awaited<ReturnType<TTestContext['newEmployee']>>;

beforeAll(async () => {
  ctx = await createTestContext();
  seller = await ctx.newCustomer({ name: 'Tea House' });
  other = await ctx.newCustomer({ name: 'Other Seller' });
  staff = await ctx.newEmployee();
}, 60_000);
afterAll(() => ctx?.close());

describe('support tickets', () => {
  it('a bug report goes to the staff, is answered, and the seller sees the reply (mail both ways)', async () => {
    const mailsBefore = ctx.outbox().length;
    const created = await ctx.api.supportRoutes.createTicket({
      body: {
        kind: 'bug',
        subject: 'Pick list prints blank',
        body: 'The pick list is empty',
        steps: '1. open /deliver\n2. print',
        screen: '/deliver',
        app_version: '1.2.3',
      },
      token: seller.token,
    });
    expect(created.statusCode).toBe(201);
    const ticket = created.json();
    expect(ticket).toMatchObject({ kind: 'bug', status: 'new', screen: '/deliver', app_version: '1.2.3', replies: [] });
    expect(ticket.customer_name).toBe('Tea House');

    // the staff's mail: every active employee
    const toStaff = (await ctx.waitForOutbox(mailsBefore + 1)).filter((m) => m.to === staff.email);
    expect(toStaff.at(-1)?.subject).toContain('Tea House');
    expect(toStaff.at(-1)?.text).toContain('The pick list is empty');

    // the board lists it among the open ones, with the seller's name
    const board = await ctx.api.crmSupportRoutes.listTickets({ query: { open: 'true' }, token: staff.token });
    expect(board.statusCode).toBe(200);
    expect(board.json().results.map((t: { id: string }) => t.id)).toContain(ticket.id);

    const answer = await ctx.api.crmSupportRoutes.replyTicket({
      params: { id: ticket.id },
      body: { body: 'Fixed in 1.2.4, please reload' },
      token: staff.token,
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toMatchObject({ status: 'waiting', reply_count: 1 });

    const mine = await ctx.api.supportRoutes.getTicket({ params: { id: ticket.id }, token: seller.token });
    expect(mine.json().replies).toMatchObject([{ side: 'staff', body: 'Fixed in 1.2.4, please reload' }]);
    const toSeller = (await ctx.waitForOutbox(mailsBefore + 2)).filter((m) => m.to === seller.email);
    expect(toSeller.at(-1)?.text).toContain('Fixed in 1.2.4');
    expect(toSeller.at(-1)?.text).toContain('/bug');

    // the seller answers back: in progress again
    const back = await ctx.api.supportRoutes.replyTicket({
      params: { id: ticket.id },
      body: { body: 'Works now, thanks' },
      token: seller.token,
    });
    expect(back.json()).toMatchObject({ status: 'in_progress', reply_count: 2 });

    const done = await ctx.api.crmSupportRoutes.setTicketStatus({
      params: { id: ticket.id },
      body: { status: 'done' },
      token: staff.token,
    });
    expect(done.json().status).toBe('done');

    // every staff action is audited with the seller it touched
    const audit = await queryRows<{ action: string; customer_id: string; actor_type: string }>(
      ctx.deps.database.db,
      sql`select action, customer_id::text as customer_id, actor_type from audit_logs
          where entity = 'support_ticket' and entity_id = ${ticket.id} order by created_at, id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['create', 'answer', 'reply', 'set_status']);
    expect(new Set(audit.map((a) => a.customer_id))).toEqual(new Set([seller.customerId]));
  });

  it("a seller never sees another seller's tickets", async () => {
    const created = await ctx.api.supportRoutes.createTicket({
      body: { kind: 'request', subject: 'Please add CSV' },
      token: other.token,
    });
    const id = created.json().id;
    expect((await ctx.api.supportRoutes.getTicket({ params: { id }, token: seller.token })).statusCode).toBe(404);
    const reply = await ctx.api.supportRoutes.replyTicket({ params: { id }, body: { body: 'x' }, token: seller.token });
    expect(reply.statusCode).toBe(404);
    const list = await ctx.api.supportRoutes.listTickets({ token: seller.token });
    expect(list.json().results.every((t: { customer_id: string }) => t.customer_id === seller.customerId)).toBe(true);
    const kinds = await ctx.api.supportRoutes.listTickets({ query: { kind: 'request' }, token: other.token });
    expect(kinds.json().count).toBe(1);
  });

  it('keeps a bug report screenshot when its bytes are the image it claims to be', async () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const ok = await ctx.api.supportRoutes.createTicket({
      body: { kind: 'bug', subject: 'With a picture', screenshot: png },
      token: seller.token,
    });
    expect(ok.statusCode).toBe(201);
    const staffView = await ctx.api.crmSupportRoutes.getTicket({ params: { id: ok.json().id }, token: staff.token });
    expect(staffView.json().screenshot).toBe(png);
    const fake = await ctx.api.supportRoutes.createTicket({
      body: {
        kind: 'bug',
        subject: 'Not a picture',
        screenshot: `data:image/png;base64,${Buffer.from('<svg onload=alert(1)>').toString('base64')}`,
      },
      token: seller.token,
    });
    expect(fake.statusCode).toBe(400);
    expect(fake.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'screenshot' } });
  });

  it('refuses the staff routes to a seller and the seller routes to an employee', async () => {
    expect((await ctx.api.crmSupportRoutes.listTickets({ token: seller.token })).statusCode).toBe(403);
    expect((await ctx.api.supportRoutes.listTickets({ token: staff.token })).statusCode).toBe(403);
  });
});

describe('announcements', () => {
  it('shows a published announcement to its audience within its window, and records the acknowledgement', async () => {
    const all = await ctx.api.crmSupportRoutes.createAnnouncement({
      body: { title: 'Closed on New Year', body: '**1/1** no pickups', pinned: true },
      token: staff.token,
    });
    expect(all.statusCode).toBe(201);
    const chosen = await ctx.api.crmSupportRoutes.createAnnouncement({
      body: { title: 'Your contract', audience: 'chosen', customer_ids: [other.customerId] },
      token: staff.token,
    });
    const future = await ctx.api.crmSupportRoutes.createAnnouncement({
      body: { title: 'Later', starts_at: new Date(Date.now() + 86_400_000).toISOString() },
      token: staff.token,
    });
    expect(future.statusCode).toBe(201);

    const forSeller = await ctx.api.supportRoutes.currentNotices({ token: seller.token });
    expect(forSeller.json().map((n: { title: string }) => n.title)).toEqual(['Closed on New Year']);
    const forOther = await ctx.api.supportRoutes.currentNotices({ token: other.token });
    expect(
      forOther
        .json()
        .map((n: { title: string }) => n.title)
        .sort(),
    ).toEqual(['Closed on New Year', 'Your contract']);
    expect(JSON.stringify(forOther.json())).not.toContain(other.customerId);

    // the seller cannot acknowledge what is not meant for it
    const notMine = await ctx.api.supportRoutes.acknowledgeNotice({
      params: { id: chosen.json().id },
      token: seller.token,
    });
    expect(notMine.statusCode).toBe(404);
    const ack = await ctx.api.supportRoutes.acknowledgeNotice({ params: { id: all.json().id }, token: seller.token });
    expect(ack.statusCode).toBe(200);
    await ctx.api.supportRoutes.acknowledgeNotice({ params: { id: all.json().id }, token: seller.token });
    const after = await ctx.api.supportRoutes.currentNotices({ token: seller.token });
    expect(after.json()[0]!.acknowledged_at).not.toBeNull();

    const board = await ctx.api.crmSupportRoutes.listAnnouncements({ token: staff.token });
    const row = board.json().results.find((a: { id: string }) => a.id === all.json().id);
    expect(row!.ack_count).toBe(1);

    // an expired one disappears
    const ended = await ctx.api.crmSupportRoutes.updateAnnouncement({
      params: { id: chosen.json().id },
      body: {
        title: 'Your contract',
        audience: 'chosen',
        customer_ids: [other.customerId],
        starts_at: new Date(Date.now() - 7_200_000).toISOString(),
        ends_at: new Date(Date.now() - 3_600_000).toISOString(),
      },
      token: staff.token,
    });
    expect(ended.statusCode).toBe(200);
    const now = await ctx.api.supportRoutes.currentNotices({ token: other.token });
    expect(now.json().map((n: { title: string }) => n.title)).toEqual(['Closed on New Year']);

    const del = await ctx.api.crmSupportRoutes.deleteAnnouncement({
      params: { id: future.json().id },
      token: staff.token,
    });
    expect(del.statusCode).toBe(200);
  });

  it('refuses a chosen audience without sellers, or with an unknown one', async () => {
    const none = await ctx.api.crmSupportRoutes.createAnnouncement({
      body: { title: 'x', audience: 'chosen', customer_ids: [] },
      token: staff.token,
    });
    expect(none.statusCode).toBe(400);
    const unknown = await ctx.api.crmSupportRoutes.createAnnouncement({
      body: { title: 'x', audience: 'chosen', customer_ids: ['00000000-0000-4000-8000-000000000000'] },
      token: staff.token,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.error().params!.field).toBe('customer_ids');
  });
});
