import type { TWorldBuilder } from '../../../test/world';

/**
 * Rows of the support tables for the tenant isolation sweep: a ticket with a staff answer, and an announcement chosen
 * for the seller and acknowledged by it (made through the HTTP routes, as the staff and the seller would).
 */
export const supportWorld: TWorldBuilder = async (ctx, s) => {
  const staff = await ctx.newEmployee();
  const created = await ctx.inject({
    method: 'POST',
    url: '/api/support/tickets/',
    token: s.token,
    payload: { kind: 'bug', subject: 'World bug', body: 'It breaks', steps: '1. open', screen: '/entry' },
  });
  if (created.statusCode !== 201) throw new Error(`support world: ${created.body}`);
  const ticket = created.json() as { id: string };
  await ctx.inject({
    method: 'POST',
    url: `/api/crm/tickets/${ticket.id}/replies/`,
    token: staff.token,
    payload: { body: 'Looking into it' },
  });
  const notice = await ctx.inject({
    method: 'POST',
    url: '/api/crm/announcements/',
    token: staff.token,
    payload: { title: 'For you only', body: 'Hello', audience: 'chosen', customer_ids: [s.customerId] },
  });
  if (notice.statusCode !== 201) throw new Error(`support world: ${notice.body}`);
  await ctx.inject({
    method: 'POST',
    url: `/api/notices/${(notice.json() as { id: string }).id}/ack/`,
    token: s.token,
  });
};
