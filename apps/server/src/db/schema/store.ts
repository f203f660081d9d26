import { index, pgTable, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers, store_members, stores } from './account';
import { outbound_orders } from './outbound';

/**
 * The outbound orders placed through the online store (direct purchase): by a member (member_id) or by the seller
 * from the main area (member_id null). The order itself is an ordinary outbound order of channel `store`.
 */
export const store_orders = pgTable(
  'store_orders',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    member_id: uuid('member_id').references(() => store_members.id),
    order_id: uuid('order_id')
      .notNull()
      .references(() => outbound_orders.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('store_orders_order_key').on(t.order_id),
    index('store_orders_member_idx').on(t.member_id, t.created_at),
    index('store_orders_store_idx').on(t.store_id, t.created_at),
  ],
);
