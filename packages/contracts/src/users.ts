import { z } from 'zod';
import { ZEmail, ZLanguage } from './auth';
import { ZIdParams, ZIsoDate, ZListQuery, ZOk, ZPage } from './common';
import { ZCustomGrant, ZSellerRole } from './permissions';
import { defineRoutes } from './routes';

/** One user of the seller's company as /users lists it. */
export const ZCompanyUser = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  seller_role: ZSellerRole,
  /** The ticked grants of a custom role (empty for the others). */
  menu_access: z.array(ZCustomGrant),
  is_active: z.boolean(),
  /** Invited: the set-password link was not used yet. */
  invited: z.boolean(),
  two_factor_enabled: z.boolean(),
  two_factor_required: z.boolean(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
});
export type TCompanyUser = z.infer<typeof ZCompanyUser>;

export const ZInviteUser = z.object({
  email: ZEmail,
  name: z.string().trim().min(1).max(100),
  seller_role: ZSellerRole,
  menu_access: z.array(ZCustomGrant).max(20).optional(),
  language: ZLanguage.optional(),
});
export type TInviteUser = z.infer<typeof ZInviteUser>;

export const ZUpdateCompanyUser = z
  .object({
    name: z.string().trim().min(1).max(100),
    seller_role: ZSellerRole,
    menu_access: z.array(ZCustomGrant).max(20),
    two_factor_required: z.boolean(),
  })
  .partial();
export type TUpdateCompanyUser = z.infer<typeof ZUpdateCompanyUser>;

export const ZCompanyUserList = ZPage(ZCompanyUser);

/** Audit trail of the seller's company: who did what to which document, when. */
export const ZAuditQuery = ZListQuery.extend({
  user_id: z.uuid().optional(),
  entity: z.string().trim().max(60).optional(),
  entity_id: z.string().trim().max(100).optional(),
  date_from: ZIsoDate.optional(),
  date_to: ZIsoDate.optional(),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

export const ZAuditEntry = z.object({
  id: z.number().int(),
  created_at: z.string(),
  actor_type: z.string(),
  actor_id: z.string().nullable(),
  /** The user's name, or null for the system, a partner API key or a store member. */
  actor_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export const ZAuditPage = ZPage(ZAuditEntry);

export const userRoutes = defineRoutes({
  listCompanyUsers: {
    method: 'GET',
    path: '/api/users/',
    auth: 'customer',
    perm: 'users:read',
    query: ZListQuery,
    response: ZCompanyUserList,
  },
  inviteCompanyUser: {
    method: 'POST',
    path: '/api/users/',
    auth: 'customer',
    perm: 'users:write',
    body: ZInviteUser,
    response: ZCompanyUser,
  },
  updateCompanyUser: {
    method: 'PATCH',
    path: '/api/users/:id/',
    auth: 'customer',
    perm: 'users:write',
    params: ZIdParams,
    body: ZUpdateCompanyUser,
    response: ZCompanyUser,
    tenantScoped: true,
  },
  deactivateCompanyUser: {
    method: 'POST',
    path: '/api/users/:id/deactivate/',
    auth: 'customer',
    perm: 'users:write',
    params: ZIdParams,
    response: ZCompanyUser,
    tenantScoped: true,
  },
  activateCompanyUser: {
    method: 'POST',
    path: '/api/users/:id/activate/',
    auth: 'customer',
    perm: 'users:write',
    params: ZIdParams,
    response: ZCompanyUser,
    tenantScoped: true,
  },
  resetCompanyUserPassword: {
    method: 'POST',
    path: '/api/users/:id/reset-password/',
    auth: 'customer',
    perm: 'users:write',
    params: ZIdParams,
    response: ZOk,
    tenantScoped: true,
  },
  listAuditTrail: {
    method: 'GET',
    path: '/api/audit-trail/',
    auth: 'customer',
    perm: 'users:read',
    query: ZAuditQuery,
    response: ZAuditPage,
  },
  exportAuditTrail: {
    method: 'GET',
    path: '/api/audit-trail/export/',
    auth: 'customer',
    perm: 'users:read',
    query: ZAuditQuery,
    response: z.unknown(),
  },
});
