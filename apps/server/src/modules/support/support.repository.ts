import { type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor, queryRows } from '../../db/client';
import { isoSql, likePattern } from '../../platform/listing';

export interface TTicketRow {
  id: string;
  kind: 'help' | 'bug' | 'request';
  subject: string;
  body: string;
  steps: string;
  screen: string;
  app_version: string;
  status: 'new' | 'in_progress' | 'waiting' | 'done';
  customer_id: string;
  customer_name: string;
  created_by: string;
  created_by_name: string;
  created_by_email: string;
  created_by_language: string;
  reply_count: number;
  last_reply_at: string | null;
  created_at: string;
  updated_at: string;
}

const TICKET_SELECT = sql`select t.id, t.kind, t.subject, t.body, t.steps, t.screen, t.app_version, t.status,
    t.customer_id, c.name as customer_name, t.created_by, u.name as created_by_name, u.email as created_by_email,
    u.language as created_by_language,
    (select count(*)::int from support_replies r where r.ticket_id = t.id) as reply_count,
    ${isoSql('t.last_reply_at')} as last_reply_at, ${isoSql('t.created_at')} as created_at,
    ${isoSql('t.updated_at')} as updated_at
  from support_tickets t join customers c on c.id = t.customer_id join users u on u.id = t.created_by`;

const ORDERINGS: Record<string, string> = {
  created_at: 't.created_at',
  updated_at: 't.updated_at',
  status: 't.status',
  kind: 't.kind',
  subject: 't.subject',
  customer_name: 'c.name',
};

export interface TTicketFilter {
  customerId?: string;
  kind?: string;
  status?: string;
  open?: boolean;
  search?: string;
  ordering?: string;
  limit: number;
  offset: number;
}

function ticketWhere(f: TTicketFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (f.customerId) parts.push(sql`t.customer_id = ${f.customerId}`);
  if (f.kind) parts.push(sql`t.kind = ${f.kind}`);
  if (f.status) parts.push(sql`t.status = ${f.status}`);
  if (f.open === true) parts.push(sql`t.status in ('new', 'in_progress')`);
  if (f.open === false) parts.push(sql`t.status in ('waiting', 'done')`);
  if (f.search) {
    const p = likePattern(f.search);
    parts.push(sql`(t.subject ilike ${p} or t.body ilike ${p} or c.name ilike ${p})`);
  }
  return sql.join(parts, sql` and `);
}

/** `?ordering=` from the whitelist, or null (the caller answers 400). */
export function ticketOrdering(ordering: string | undefined): SQL | null {
  const raw = ordering ?? '-updated_at';
  const desc = raw.startsWith('-');
  const column = ORDERINGS[raw.replace(/^-/, '')];
  if (!column || !Object.hasOwn(ORDERINGS, raw.replace(/^-/, ''))) return null;
  return sql.raw(`${column} ${desc ? 'desc' : 'asc'}, t.id asc`);
}

export async function listTickets(ex: Executor, f: TTicketFilter, order: SQL) {
  const where = ticketWhere(f);
  const [rows, [count]] = await allOf(ex, [
    () =>
      queryRows<TTicketRow>(
        ex,
        sql`${TICKET_SELECT} where ${where} order by ${order} limit ${f.limit} offset ${f.offset}`,
      ),
    () =>
      queryRows<{ n: number }>(
        ex,
        sql`select count(*)::int as n from support_tickets t join customers c on c.id = t.customer_id where ${where}`,
      ),
  ]);
  return { rows, count: count?.n ?? 0 };
}

/** One ticket; `customerId` scopes it to a seller (null: staff, any seller). `lock` takes the row for an update. */
export async function findTicket(ex: Executor, id: string, customerId: string | null, lock = false) {
  if (lock) {
    await ex.execute(
      sql`select id from support_tickets where id = ${id} ${customerId ? sql`and customer_id = ${customerId}` : sql``} for update`,
    );
  }
  const [row] = await queryRows<TTicketRow>(
    ex,
    sql`${TICKET_SELECT} where t.id = ${id} ${customerId ? sql`and t.customer_id = ${customerId}` : sql``}`,
  );
  return row;
}

export async function screenshotOf(ex: Executor, id: string): Promise<string | null> {
  const [row] = await queryRows<{ screenshot: string | null }>(
    ex,
    sql`select screenshot from support_tickets where id = ${id}`,
  );
  return row?.screenshot ?? null;
}

export interface TReplyRow {
  id: string;
  side: 'seller' | 'staff';
  author_name: string;
  body: string;
  created_at: string;
}

export function listReplies(ex: Executor, ticketId: string) {
  return queryRows<TReplyRow>(
    ex,
    sql`select r.id, r.author_side as side, u.name as author_name, r.body, ${isoSql('r.created_at')} as created_at
        from support_replies r join users u on u.id = r.author_id
        where r.ticket_id = ${ticketId} order by r.created_at, r.id`,
  );
}

export async function insertTicket(
  ex: Executor,
  v: {
    customerId: string;
    kind: string;
    subject: string;
    body: string;
    steps: string;
    screen: string;
    appVersion: string;
    screenshot: string | null;
    createdBy: string;
  },
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    ex,
    sql`insert into support_tickets (customer_id, kind, subject, body, steps, screen, app_version, screenshot, created_by)
        values (${v.customerId}, ${v.kind}, ${v.subject}, ${v.body}, ${v.steps}, ${v.screen}, ${v.appVersion}, ${v.screenshot},
                ${v.createdBy})
        returning id`,
  );
  return row!.id;
}

export async function insertReply(
  ex: Executor,
  v: { customerId: string; ticketId: string; side: 'seller' | 'staff'; authorId: string; body: string },
): Promise<void> {
  await ex.execute(
    sql`insert into support_replies (customer_id, ticket_id, author_side, author_id, body)
        values (${v.customerId}, ${v.ticketId}, ${v.side}, ${v.authorId}, ${v.body})`,
  );
}

export async function updateTicket(ex: Executor, id: string, v: { status: string; replied?: boolean }): Promise<void> {
  await ex.execute(
    sql`update support_tickets set status = ${v.status}, updated_at = now()
        ${v.replied ? sql`, last_reply_at = now()` : sql``} where id = ${id}`,
  );
}

/** Active employees (the support desk's inbox: each gets the sellers' tickets and answers by mail). */
export function staffRecipients(ex: Executor) {
  return queryRows<{ email: string; language: string }>(
    ex,
    sql`select email, language from users where role = 'EMPLOYEE' and is_active order by email`,
  );
}

export function userById(ex: Executor, id: string) {
  return queryRows<{ id: string; name: string; email: string; language: string }>(
    ex,
    sql`select id, name, email, language from users where id = ${id}`,
  ).then((r) => r[0]);
}

// ---- announcements

export interface TAnnouncementRow {
  id: string;
  title: string;
  body: string;
  audience: 'all' | 'chosen';
  customer_ids: string[] | null;
  starts_at: string;
  ends_at: string | null;
  pinned: boolean;
  ack_count: number;
  created_at: string;
}

const ANNOUNCEMENT_SELECT = sql`select a.id, a.title, a.body, a.audience,
    (select coalesce(array_agg(t.customer_id::text order by t.customer_id), '{}') from announcement_targets t where t.announcement_id = a.id) as customer_ids,
    ${isoSql('a.starts_at')} as starts_at, ${isoSql('a.ends_at')} as ends_at, a.pinned,
    (select count(*)::int from announcement_acks k where k.announcement_id = a.id) as ack_count,
    ${isoSql('a.created_at')} as created_at
  from announcements a`;

export async function listAnnouncements(ex: Executor, q: { search?: string; limit: number; offset: number }) {
  const where = q.search ? sql`a.title ilike ${likePattern(q.search)}` : sql`true`;
  const [rows, [count]] = await allOf(ex, [
    () =>
      queryRows<TAnnouncementRow>(
        ex,
        sql`${ANNOUNCEMENT_SELECT} where ${where} order by a.pinned desc, a.starts_at desc, a.id limit ${q.limit} offset ${q.offset}`,
      ),
    () => queryRows<{ n: number }>(ex, sql`select count(*)::int as n from announcements a where ${where}`),
  ]);
  return { rows, count: count?.n ?? 0 };
}

export async function findAnnouncement(ex: Executor, id: string) {
  const [row] = await queryRows<TAnnouncementRow>(ex, sql`${ANNOUNCEMENT_SELECT} where a.id = ${id}`);
  return row;
}

export async function saveAnnouncement(
  ex: Executor,
  id: string | null,
  v: {
    title: string;
    body: string;
    audience: string;
    startsAt: Date;
    endsAt: Date | null;
    pinned: boolean;
    createdBy: string;
  },
): Promise<string | undefined> {
  const [row] = id
    ? await queryRows<{ id: string }>(
        ex,
        sql`update announcements set title = ${v.title}, body = ${v.body}, audience = ${v.audience},
            starts_at = ${v.startsAt.toISOString()}, ends_at = ${v.endsAt?.toISOString() ?? null}, pinned = ${v.pinned},
            updated_at = now() where id = ${id} returning id`,
      )
    : await queryRows<{ id: string }>(
        ex,
        sql`insert into announcements (title, body, audience, starts_at, ends_at, pinned, created_by)
            values (${v.title}, ${v.body}, ${v.audience}, ${v.startsAt.toISOString()}, ${v.endsAt?.toISOString() ?? null},
                    ${v.pinned}, ${v.createdBy}) returning id`,
      );
  return row?.id;
}

export async function setTargets(ex: Executor, id: string, customerIds: string[]): Promise<void> {
  await ex.execute(sql`delete from announcement_targets where announcement_id = ${id}`);
  for (const customerId of customerIds) {
    await ex.execute(
      sql`insert into announcement_targets (announcement_id, customer_id) values (${id}, ${customerId}) on conflict do nothing`,
    );
  }
}

export async function countCustomers(ex: Executor, ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const [row] = await queryRows<{ n: number }>(
    ex,
    sql`select count(*)::int as n from customers where id in (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )})`,
  );
  return row?.n ?? 0;
}

export async function deleteAnnouncement(ex: Executor, id: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(ex, sql`delete from announcements where id = ${id} returning id`);
  return rows.length > 0;
}

/** What a seller sees now: in its publish window, for all sellers or chosen for it; pinned first, newest first. */
const NOTICE_FOR = (customerId: string) => sql`a.starts_at <= now() and (a.ends_at is null or a.ends_at > now())
    and (a.audience = 'all' or exists (select 1 from announcement_targets t where t.announcement_id = a.id and t.customer_id = ${customerId}))`;

export function currentNotices(ex: Executor, customerId: string) {
  return queryRows<{
    id: string;
    title: string;
    body: string;
    pinned: boolean;
    starts_at: string;
    ends_at: string | null;
    acknowledged_at: string | null;
  }>(
    ex,
    sql`select a.id, a.title, a.body, a.pinned, ${isoSql('a.starts_at')} as starts_at, ${isoSql('a.ends_at')} as ends_at,
          ${isoSql('k.acked_at')} as acknowledged_at
        from announcements a
        left join announcement_acks k on k.announcement_id = a.id and k.customer_id = ${customerId}
        where ${NOTICE_FOR(customerId)}
        order by a.pinned desc, a.starts_at desc, a.id limit 50`,
  );
}

export async function noticeVisible(ex: Executor, id: string, customerId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    ex,
    sql`select a.id from announcements a where a.id = ${id} and ${NOTICE_FOR(customerId)}`,
  );
  return rows.length > 0;
}

export async function acknowledge(ex: Executor, id: string, customerId: string, userId: string): Promise<boolean> {
  const rows = await queryRows<{ announcement_id: string }>(
    ex,
    sql`insert into announcement_acks (announcement_id, customer_id, user_id) values (${id}, ${customerId}, ${userId})
        on conflict do nothing returning announcement_id`,
  );
  return rows.length > 0;
}
