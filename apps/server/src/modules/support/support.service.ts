import {
  LANGUAGES,
  type TAnnouncement,
  type TAnnouncementInput,
  type TCreateTicket,
  type TLanguage,
  type TNotice,
  type TTicket,
  type TTicketDetail,
  type TTicketListQuery,
  type TTicketReplyInput,
  type TTicketStatus,
} from '@wms/contracts';
import type { TConfig } from '../../config';
import type { Db, Executor } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { checkedImageDataUrl } from '../../platform/images';
import type { JobQueue } from '../../platform/jobs';
import { pageWindow } from '../../platform/listing';
import { mailDelivery, queueMail, renderMail } from '../../platform/mail';
import * as repo from './support.repository';

export interface TSupportDeps {
  db: Db;
  config: TConfig;
  jobs: JobQueue;
}

const SCREEN_OF_KIND = { help: '/user-help', bug: '/bug', request: '/request' } as const;

/** A screenshot data URL whose bytes are the image type it names, or INVALID_FIELD. */
function checkedScreenshot(dataUrl: string | undefined): string | null {
  return dataUrl ? checkedImageDataUrl(dataUrl, 'screenshot') : null;
}

const languageOf = (l: string): TLanguage =>
  (LANGUAGES as readonly string[]).includes(l) ? (l as TLanguage) : 'zh-TW';

function toTicket(r: repo.TTicketRow): TTicket {
  return {
    id: r.id,
    kind: r.kind,
    subject: r.subject,
    body: r.body,
    steps: r.steps,
    screen: r.screen,
    app_version: r.app_version,
    status: r.status,
    customer_id: r.customer_id,
    customer_name: r.customer_name,
    created_by_name: r.created_by_name,
    reply_count: r.reply_count,
    last_reply_at: r.last_reply_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

async function detail(ex: Executor, id: string, customerId: string | null): Promise<TTicketDetail> {
  const row = await repo.findTicket(ex, id, customerId);
  if (!row) throw new AppError('NOT_FOUND');
  const replies = await repo.listReplies(ex, id);
  return { ...toTicket(row), screenshot: await repo.screenshotOf(ex, id), replies };
}

async function listOf(deps: TSupportDeps, q: TTicketListQuery, customerId: string | null) {
  const order = repo.ticketOrdering(q.ordering);
  if (!order) throw new AppError('INVALID_FIELD', { field: 'ordering' });
  const { limit, offset } = pageWindow(q);
  const { rows, count } = await repo.listTickets(
    deps.db,
    {
      customerId: customerId ?? q.customer_id,
      kind: q.kind,
      status: q.status,
      open: q.open === undefined ? undefined : q.open === 'true',
      search: q.search,
      limit,
      offset,
    },
    order,
  );
  return { count, results: rows.map(toTicket) };
}

/** Mail every active employee about a seller's ticket or answer (queued in the caller's transaction). */
async function mailStaff(
  deps: Pick<TSupportDeps, 'config' | 'jobs'>,
  tx: Executor,
  ticket: repo.TTicketRow,
  author: string,
  body: string,
) {
  for (const staff of await repo.staffRecipients(tx)) {
    const mail = renderMail('ticket_to_staff', languageOf(staff.language), {
      company: ticket.customer_name,
      author,
      subject: ticket.subject,
      body,
      url: deps.config.publicUrl,
    });
    await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: staff.email, ...mail });
  }
}

// ---- the seller's side

/** GET /api/support/tickets/: the caller's company's tickets. */
export function listMyTickets(deps: TSupportDeps, actor: TActor, q: TTicketListQuery) {
  return listOf(deps, q, tenantOf(actor));
}

/** GET /api/support/tickets/:id/ */
export function getMyTicket(deps: TSupportDeps, actor: TActor, id: string) {
  return detail(deps.db, id, tenantOf(actor));
}

/** POST /api/support/tickets/: a help question, bug report or feature request; the staff are mailed. */
export async function createTicket(deps: TSupportDeps, actor: TActor, input: TCreateTicket): Promise<TTicketDetail> {
  const out = await withTx(deps.db, (tx) => createTicketIn(deps, tx, actor, input));
  deps.jobs.kick(mailDelivery.name);
  return out;
}

/**
 * The ticket written in the caller's transaction (another module's use case that files one with its own change, e.g.
 * a usage statement's dispute); the caller kicks the mail delivery after its commit.
 */
export async function createTicketIn(
  deps: Pick<TSupportDeps, 'config' | 'jobs'>,
  tx: Executor,
  actor: TActor,
  input: TCreateTicket,
): Promise<TTicketDetail> {
  const customerId = tenantOf(actor);
  const screenshot = input.kind === 'bug' ? checkedScreenshot(input.screenshot) : null;
  {
    const id = await repo.insertTicket(tx, {
      screenshot,
      customerId,
      kind: input.kind,
      subject: input.subject,
      body: input.body,
      steps: input.steps ?? '',
      screen: input.screen ?? '',
      appVersion: input.app_version ?? '',
      createdBy: actor.id!,
    });
    const ticket = await detail(tx, id, customerId);
    await writeAudit(tx, actor, {
      action: 'create',
      entity: 'support_ticket',
      entityId: id,
      after: { kind: input.kind, subject: input.subject },
    });
    const row = (await repo.findTicket(tx, id, customerId))!;
    await mailStaff(deps, tx, row, row.created_by_name, [input.body, input.steps].filter(Boolean).join('\n\n'));
    return ticket;
  }
}

/** POST /api/support/tickets/:id/replies/: the seller answers; a ticket waiting for it (or done) is back in progress. */
export async function replyMyTicket(deps: TSupportDeps, actor: TActor, id: string, input: TTicketReplyInput) {
  const customerId = tenantOf(actor);
  const out = await withTx(deps.db, async (tx) => {
    const row = await repo.findTicket(tx, id, customerId, true);
    if (!row) throw new AppError('NOT_FOUND');
    await repo.insertReply(tx, { customerId, ticketId: id, side: 'seller', authorId: actor.id!, body: input.body });
    const status: TTicketStatus = row.status === 'new' ? 'new' : 'in_progress';
    await repo.updateTicket(tx, id, { status, replied: true });
    await writeAudit(tx, actor, { action: 'reply', entity: 'support_ticket', entityId: id, after: { status } });
    const author = await repo.userById(tx, actor.id!);
    await mailStaff(deps, tx, row, author?.name ?? '', input.body);
    return detail(tx, id, customerId);
  });
  deps.jobs.kick(mailDelivery.name);
  return out;
}

/** GET /api/notices/: the announcements meant for the caller's company now. */
export async function currentNotices(deps: TSupportDeps, actor: TActor): Promise<TNotice[]> {
  return repo.currentNotices(deps.db, tenantOf(actor));
}

/** POST /api/notices/:id/ack/: the company has read it (once; again is a no-op). */
export async function acknowledgeNotice(deps: TSupportDeps, actor: TActor, id: string) {
  const customerId = tenantOf(actor);
  await withTx(deps.db, async (tx) => {
    if (!(await repo.noticeVisible(tx, id, customerId))) throw new AppError('NOT_FOUND');
    if (await repo.acknowledge(tx, id, customerId, actor.id!)) {
      await writeAudit(tx, actor, { action: 'acknowledge', entity: 'announcement', entityId: id });
    }
  });
  return { ok: true as const };
}

// ---- the staff's side (every seller)

/** GET /api/crm/tickets/ */
export function listAllTickets(deps: TSupportDeps, q: TTicketListQuery) {
  return listOf(deps, q, null);
}

/** GET /api/crm/tickets/:id/ */
export function getAnyTicket(deps: TSupportDeps, id: string) {
  return detail(deps.db, id, null);
}

/** POST /api/crm/tickets/:id/replies/: the staff answer (default: now waiting for the seller); the seller is mailed. */
export async function answerTicket(deps: TSupportDeps, actor: TActor, id: string, input: TTicketReplyInput) {
  const out = await withTx(deps.db, (tx) => answerTicketIn(deps, tx, actor, id, input));
  deps.jobs.kick(mailDelivery.name);
  return out;
}

/**
 * The staff's answer written in the caller's transaction (another module's use case that answers with its own change,
 * e.g. a usage statement's dispute corrected or rejected): a staff reply, the status (default waiting), the seller
 * mailed. `body` may be written in the language of the seller who filed the ticket. The caller kicks the mail delivery
 * after its commit.
 */
export async function answerTicketIn(
  deps: Pick<TSupportDeps, 'config' | 'jobs'>,
  tx: Executor,
  actor: TActor,
  id: string,
  input: { body: string | ((language: TLanguage) => string); status?: TTicketStatus },
): Promise<TTicketDetail> {
  const row = await repo.findTicket(tx, id, null, true);
  if (!row) throw new AppError('NOT_FOUND');
  const body = typeof input.body === 'string' ? input.body : input.body(languageOf(row.created_by_language));
  await repo.insertReply(tx, {
    customerId: row.customer_id,
    ticketId: id,
    side: 'staff',
    authorId: actor.id!,
    body,
  });
  const status = input.status ?? 'waiting';
  await repo.updateTicket(tx, id, { status, replied: true });
  await writeAudit(tx, actor, {
    action: 'answer',
    entity: 'support_ticket',
    entityId: id,
    customerId: row.customer_id,
    before: { status: row.status },
    after: { status },
  });
  const mail = renderMail('ticket_to_seller', languageOf(row.created_by_language), {
    name: row.created_by_name,
    subject: row.subject,
    body,
    url: deps.config.publicUrl,
    path: SCREEN_OF_KIND[row.kind],
  });
  await queueMail(deps.jobs, tx, deps.config.encryptionKey, { to: row.created_by_email, ...mail });
  return detail(tx, id, null);
}

/** PUT /api/crm/tickets/:id/status/ */
export async function setTicketStatus(deps: TSupportDeps, actor: TActor, id: string, status: TTicketStatus) {
  return withTx(deps.db, async (tx) => {
    const row = await repo.findTicket(tx, id, null, true);
    if (!row) throw new AppError('NOT_FOUND');
    if (row.status !== status) {
      await repo.updateTicket(tx, id, { status });
      await writeAudit(tx, actor, {
        action: 'set_status',
        entity: 'support_ticket',
        entityId: id,
        customerId: row.customer_id,
        before: { status: row.status },
        after: { status },
      });
    }
    return detail(tx, id, null);
  });
}

function toAnnouncement(r: repo.TAnnouncementRow): TAnnouncement {
  return { ...r, customer_ids: r.customer_ids ?? [] };
}

/** GET /api/crm/announcements/ */
export async function listAnnouncements(deps: TSupportDeps, q: { page: number; page_size: number; search?: string }) {
  const { rows, count } = await repo.listAnnouncements(deps.db, { search: q.search, ...pageWindow(q) });
  return { count, results: rows.map(toAnnouncement) };
}

/** POST /api/crm/announcements/ and PUT /api/crm/announcements/:id/ */
export async function saveAnnouncement(
  deps: TSupportDeps,
  actor: TActor,
  id: string | null,
  input: TAnnouncementInput,
): Promise<TAnnouncement> {
  const targets = input.audience === 'chosen' ? [...new Set(input.customer_ids)] : [];
  return withTx(deps.db, async (tx) => {
    const before = id ? await repo.findAnnouncement(tx, id) : undefined;
    if (id && !before) throw new AppError('NOT_FOUND');
    if ((await repo.countCustomers(tx, targets)) !== targets.length) {
      throw new AppError('INVALID_FIELD', { field: 'customer_ids' });
    }
    const startsAt = input.starts_at ? new Date(input.starts_at) : before ? new Date(before.starts_at) : new Date();
    const endsAt = input.ends_at ? new Date(input.ends_at) : null;
    if (endsAt && endsAt <= startsAt) throw new AppError('INVALID_FIELD', { field: 'ends_at' });
    const savedId = await repo.saveAnnouncement(tx, id, {
      title: input.title,
      body: input.body,
      audience: input.audience,
      startsAt,
      endsAt,
      pinned: input.pinned,
      createdBy: actor.id!,
    });
    await repo.setTargets(tx, savedId!, targets);
    const after = (await repo.findAnnouncement(tx, savedId!))!;
    await writeAudit(tx, actor, {
      action: id ? 'update' : 'create',
      entity: 'announcement',
      entityId: savedId!,
      before: before ?? null,
      after,
    });
    return toAnnouncement(after);
  });
}

/** DELETE /api/crm/announcements/:id/ */
export async function deleteAnnouncement(deps: TSupportDeps, actor: TActor, id: string) {
  await withTx(deps.db, async (tx) => {
    const before = await repo.findAnnouncement(tx, id);
    if (!before || !(await repo.deleteAnnouncement(tx, id))) throw new AppError('NOT_FOUND');
    await writeAudit(tx, actor, { action: 'delete', entity: 'announcement', entityId: id, before });
  });
  return { ok: true as const };
}
