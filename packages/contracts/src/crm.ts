import { z } from 'zod';
import { ZIdParams, ZIsoDate, ZListQuery, ZMoney, ZOk, ZPage } from './common';
import { ZLabelDocument } from './labels';
import { defineRoutes } from './routes';
import { STOCK_REASONS } from './stock';

/** The employees' CRM area (spec §2.7): every seller, read across tenants; the only place employees do so. */

export const ZCrmCustomer = z.object({
  id: z.uuid(),
  name: z.string(),
  tax_id: z.string(),
  phone: z.string(),
  /** The first CUSTOMER user of the company (the one who registered it). */
  admin_email: z.string(),
  admin_name: z.string(),
  user_count: z.number().int(),
  is_active: z.boolean(),
  stock_units: z.number().int(),
  /** Σ on hand × product cost. */
  stock_value: ZMoney,
  orders_this_month: z.number().int(),
  open_tickets: z.number().int(),
  last_activity_at: z.string().nullable(),
  created_at: z.string(),
});
export type TCrmCustomer = z.infer<typeof ZCrmCustomer>;

export const ZCrmCustomerQuery = ZListQuery.extend({ is_active: z.enum(['true', 'false']).optional() });

export const ZCrmCustomerDetail = ZCrmCustomer.extend({
  invoice_title: z.string(),
  invoice_address: z.string(),
  website: z.string(),
  users: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      email: z.string(),
      is_active: z.boolean(),
      totp_enabled: z.boolean(),
      created_at: z.string(),
    }),
  ),
  warehouses: z.array(
    z.object({
      id: z.uuid(),
      code: z.string(),
      name: z.string(),
      locations: z.number().int(),
      units: z.number().int(),
    }),
  ),
  activity: z.array(
    z.object({ action: z.string(), entity: z.string(), actor_type: z.string(), created_at: z.string() }),
  ),
});
export type TCrmCustomerDetail = z.infer<typeof ZCrmCustomerDetail>;

export const ZCrmDashboard = z.object({
  totals: z.object({
    receipts_pending: z.number().int(),
    orders_pending_export: z.number().int(),
    orders_exported: z.number().int(),
    orders_online: z.number().int(),
    open_tickets: z.number().int(),
    near_expiry: z.number().int(),
    orders_today: z.number().int(),
    orders_this_week: z.number().int(),
  }),
  by_customer: z.array(
    z.object({
      customer_id: z.uuid(),
      name: z.string(),
      /** Told apart by it when two sellers share a name. */
      tax_id: z.string(),
      receipts_pending: z.number().int(),
      orders_pending_export: z.number().int(),
      orders_exported: z.number().int(),
      orders_online: z.number().int(),
      open_tickets: z.number().int(),
      near_expiry: z.number().int(),
      /** Shipped on time over the last 30 days (percent; null: nothing shipped). */
      on_time_percent: z.number().nullable(),
      /** Orders with a ship-by time shipped over the last 30 days. */
      shipped_30d: z.number().int(),
    }),
  ),
  /** The last 7 Taipei days, oldest first. */
  days: z.array(z.object({ day: ZIsoDate, orders: z.number().int(), receipts: z.number().int() })),
});
export type TCrmDashboard = z.infer<typeof ZCrmDashboard>;

export const ZCrmRackQuery = ZListQuery.extend({
  customer_id: z.uuid().optional(),
  /** A warehouse code: sellers' warehouses with the same code are the same building. */
  warehouse: z.string().trim().max(50).optional(),
  state: z.enum(['empty', 'in_use']).optional(),
});
/** Rack labels of the locations a rack search finds (at most RACK_LABELS_MAX), on a built-in 45-cell sheet. */
export const RACK_LABELS_MAX = 500;
export const ZCrmRackLabels = z.strictObject({
  customer_id: z.uuid().optional(),
  warehouse: z.string().trim().max(50).optional(),
  search: z.string().trim().max(200).optional(),
  state: z.enum(['empty', 'in_use']).optional(),
});
export type TCrmRackLabels = z.infer<typeof ZCrmRackLabels>;

export const ZCrmRackRow = z.object({
  id: z.uuid(),
  code: z.string(),
  name: z.string(),
  kind: z.string(),
  cells: z.number().int(),
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  shelf_code: z.string(),
  customer_id: z.uuid(),
  customer_name: z.string(),
  on_hand: z.number().int(),
  products: z.number().int(),
});
export type TCrmRackRow = z.infer<typeof ZCrmRackRow>;

export const ZCrmStockQuery = ZListQuery.extend({
  customer_id: z.uuid().optional(),
  warehouse: z.string().trim().max(50).optional(),
  /** Piles whose expiry date is on or before this day. */
  expiry_before: ZIsoDate.optional(),
});
export const ZCrmStockRow = z.object({
  id: z.uuid(),
  customer_id: z.uuid(),
  customer_name: z.string(),
  warehouse_code: z.string(),
  location_code: z.string(),
  product_number: z.string(),
  product_name: z.string(),
  expiry_date: z.string().nullable(),
  on_hand: z.number().int(),
  reserved: z.number().int(),
});
export type TCrmStockRow = z.infer<typeof ZCrmStockRow>;
export const ZCrmMovement = z.object({
  id: z.string(),
  quantity: z.number().int(),
  on_hand_after: z.number().int(),
  reason: z.enum(STOCK_REASONS),
  document_number: z.string(),
  created_at: z.string(),
});

export const crmRoutes = defineRoutes({
  dashboard: { method: 'GET', path: '/api/crm/dashboard/', auth: 'employee', response: ZCrmDashboard },
  listCustomers: {
    method: 'GET',
    path: '/api/crm/customers/',
    auth: 'employee',
    query: ZCrmCustomerQuery,
    response: ZPage(ZCrmCustomer),
  },
  getCustomer: {
    method: 'GET',
    path: '/api/crm/customers/:id/',
    auth: 'employee',
    params: ZIdParams,
    response: ZCrmCustomerDetail,
  },
  setCustomerActive: {
    method: 'PUT',
    path: '/api/crm/customers/:id/active/',
    auth: 'employee',
    params: ZIdParams,
    body: z.strictObject({ is_active: z.boolean() }),
    response: ZCrmCustomerDetail,
  },
  resetUserPassword: {
    method: 'POST',
    path: '/api/crm/customers/:id/reset-password/',
    auth: 'employee',
    params: ZIdParams,
    body: z.strictObject({ user_id: z.uuid() }),
    response: ZOk,
  },
  rack: { method: 'GET', path: '/api/crm/rack/', auth: 'employee', query: ZCrmRackQuery, response: ZPage(ZCrmRackRow) },
  rackLabels: {
    method: 'POST',
    path: '/api/crm/rack/labels/',
    auth: 'employee',
    body: ZCrmRackLabels,
    response: ZLabelDocument,
  },
  stock: {
    method: 'GET',
    path: '/api/crm/stock/',
    auth: 'employee',
    query: ZCrmStockQuery,
    response: ZPage(ZCrmStockRow),
  },
  stockMovements: {
    method: 'GET',
    path: '/api/crm/stock/:id/movements/',
    auth: 'employee',
    params: ZIdParams,
    response: z.array(ZCrmMovement),
  },
});
