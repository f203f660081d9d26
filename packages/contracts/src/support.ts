import { z } from 'zod';
import { ZIdParams, ZListQuery, ZOk, ZPage } from './common';
import { defineRoutes } from './routes';

/** Support desk (spec §2.2 support): /user-help (help), /bug (bug), /request (feature request). */
export const TICKET_KINDS = ['help', 'bug', 'request'] as const;
export type TTicketKind = (typeof TICKET_KINDS)[number];
/** new → in progress → waiting for the seller → done (an answer by the seller brings it back to in progress). */
export const TICKET_STATUSES = ['new', 'in_progress', 'waiting', 'done'] as const;
export type TTicketStatus = (typeof TICKET_STATUSES)[number];
/** Tickets still on the staff's plate. */
export const OPEN_TICKET_STATUSES: readonly TTicketStatus[] = ['new', 'in_progress'];

export const ZTicket = z.object({
  id: z.uuid(),
  kind: z.enum(TICKET_KINDS),
  subject: z.string(),
  body: z.string(),
  steps: z.string(),
  screen: z.string(),
  app_version: z.string(),
  status: z.enum(TICKET_STATUSES),
  customer_id: z.uuid(),
  customer_name: z.string(),
  created_by_name: z.string(),
  reply_count: z.number().int(),
  last_reply_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TTicket = z.infer<typeof ZTicket>;

export const ZTicketReply = z.object({
  id: z.uuid(),
  side: z.enum(['seller', 'staff']),
  author_name: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export type TTicketReply = z.infer<typeof ZTicketReply>;

/** A bug report's screenshot: a PNG, JPEG or WebP image as a data URL, at most about 2 MB. */
export const SCREENSHOT_MAX_CHARS = 2_800_000;
export const ZScreenshot = z
  .string()
  .max(SCREENSHOT_MAX_CHARS)
  .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/);

export const ZTicketDetail = ZTicket.extend({ screenshot: z.string().nullable(), replies: z.array(ZTicketReply) });
export type TTicketDetail = z.infer<typeof ZTicketDetail>;

export const ZCreateTicket = z.strictObject({
  kind: z.enum(TICKET_KINDS),
  subject: z.string().trim().min(1).max(200),
  body: z.string().trim().max(10_000).default(''),
  steps: z.string().trim().max(10_000).optional(),
  screen: z.string().trim().max(300).optional(),
  app_version: z.string().trim().max(50).optional(),
  screenshot: ZScreenshot.optional(),
});
export type TCreateTicket = z.infer<typeof ZCreateTicket>;

export const ZTicketReplyInput = z.strictObject({
  body: z.string().trim().min(1).max(10_000),
  /** Staff only: the ticket's status after the answer (default: waiting for the seller). */
  status: z.enum(TICKET_STATUSES).optional(),
});
export type TTicketReplyInput = z.infer<typeof ZTicketReplyInput>;

export const ZTicketListQuery = ZListQuery.extend({
  kind: z.enum(TICKET_KINDS).optional(),
  status: z.enum(TICKET_STATUSES).optional(),
  /** Staff only: `open` = new or in progress. */
  open: z.enum(['true', 'false']).optional(),
  customer_id: z.uuid().optional(),
});
export type TTicketListQuery = z.infer<typeof ZTicketListQuery>;

export const ZTicketStatusInput = z.strictObject({ status: z.enum(TICKET_STATUSES) });

/** An announcement as a seller sees it (never its audience). */
export const ZNotice = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  pinned: z.boolean(),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
});
export type TNotice = z.infer<typeof ZNotice>;

/** An announcement as the staff manage it on /crm/board. */
export const ZAnnouncement = z.object({
  id: z.uuid(),
  title: z.string(),
  body: z.string(),
  audience: z.enum(['all', 'chosen']),
  customer_ids: z.array(z.uuid()),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  pinned: z.boolean(),
  ack_count: z.number().int(),
  created_at: z.string(),
});
export type TAnnouncement = z.infer<typeof ZAnnouncement>;

export const ZAnnouncementInput = z
  .strictObject({
    title: z.string().trim().min(1).max(200),
    body: z.string().trim().max(20_000).default(''),
    audience: z.enum(['all', 'chosen']).default('all'),
    customer_ids: z.array(z.uuid()).max(1000).default([]),
    starts_at: z.iso.datetime({ offset: true }).optional(),
    ends_at: z.iso.datetime({ offset: true }).nullable().optional(),
    pinned: z.boolean().default(false),
  })
  .refine((v) => v.audience === 'all' || v.customer_ids.length > 0, { path: ['customer_ids'] })
  .refine((v) => !v.ends_at || !v.starts_at || new Date(v.ends_at) > new Date(v.starts_at), { path: ['ends_at'] });
export type TAnnouncementInput = z.infer<typeof ZAnnouncementInput>;

/** The seller's side: own tickets, and the announcements meant for it. */
export const supportRoutes = defineRoutes({
  listTickets: {
    method: 'GET',
    path: '/api/support/tickets/',
    auth: 'customer',
    perm: 'self',
    query: ZTicketListQuery,
    response: ZPage(ZTicket),
  },
  createTicket: {
    method: 'POST',
    path: '/api/support/tickets/',
    auth: 'customer',
    perm: 'self',
    body: ZCreateTicket,
    response: ZTicketDetail,
  },
  getTicket: {
    method: 'GET',
    path: '/api/support/tickets/:id/',
    auth: 'customer',
    perm: 'self',
    params: ZIdParams,
    response: ZTicketDetail,
  },
  replyTicket: {
    method: 'POST',
    path: '/api/support/tickets/:id/replies/',
    auth: 'customer',
    perm: 'self',
    params: ZIdParams,
    body: ZTicketReplyInput,
    response: ZTicketDetail,
  },
  currentNotices: { method: 'GET', path: '/api/notices/', auth: 'customer', perm: 'self', response: z.array(ZNotice) },
  acknowledgeNotice: {
    method: 'POST',
    path: '/api/notices/:id/ack/',
    auth: 'customer',
    perm: 'self',
    params: ZIdParams,
    response: ZOk,
  },
});

/** The staff's side (/crm/board): every seller's tickets and the announcements. */
export const crmSupportRoutes = defineRoutes({
  listTickets: {
    method: 'GET',
    path: '/api/crm/tickets/',
    auth: 'employee',
    query: ZTicketListQuery,
    response: ZPage(ZTicket),
  },
  getTicket: {
    method: 'GET',
    path: '/api/crm/tickets/:id/',
    auth: 'employee',
    params: ZIdParams,
    response: ZTicketDetail,
  },
  replyTicket: {
    method: 'POST',
    path: '/api/crm/tickets/:id/replies/',
    auth: 'employee',
    params: ZIdParams,
    body: ZTicketReplyInput,
    response: ZTicketDetail,
  },
  setTicketStatus: {
    method: 'PUT',
    path: '/api/crm/tickets/:id/status/',
    auth: 'employee',
    params: ZIdParams,
    body: ZTicketStatusInput,
    response: ZTicketDetail,
  },
  listAnnouncements: {
    method: 'GET',
    path: '/api/crm/announcements/',
    auth: 'employee',
    query: ZListQuery,
    response: ZPage(ZAnnouncement),
  },
  createAnnouncement: {
    method: 'POST',
    path: '/api/crm/announcements/',
    auth: 'employee',
    body: ZAnnouncementInput,
    response: ZAnnouncement,
  },
  updateAnnouncement: {
    method: 'PUT',
    path: '/api/crm/announcements/:id/',
    auth: 'employee',
    params: ZIdParams,
    body: ZAnnouncementInput,
    response: ZAnnouncement,
  },
  deleteAnnouncement: {
    method: 'DELETE',
    path: '/api/crm/announcements/:id/',
    auth: 'employee',
    params: ZIdParams,
    response: ZOk,
  },
});
