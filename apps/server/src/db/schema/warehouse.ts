import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';

/** A warehouse of a seller's workspace; areas, shelves and storage locations hang below it. */
export const warehouses = pgTable(
  'warehouses',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    address: text('address').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('warehouses_customer_code_key').on(t.customer_id, t.code),
    index('warehouses_customer_idx').on(t.customer_id),
  ],
);
