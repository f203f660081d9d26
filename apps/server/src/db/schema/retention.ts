import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './_columns';
import { customers } from './account';

/**
 * A seller's scheduled data retention (/database-clean): when `schedule_enabled`, the daily `retention.schedule`
 * job purges `kinds` older than `months` once a month (`last_run_at`). Off by default; no row = off.
 */
export const retention_settings = pgTable(
  'retention_settings',
  {
    customer_id: uuid('customer_id')
      .primaryKey()
      .references(() => customers.id),
    schedule_enabled: boolean('schedule_enabled').notNull().default(false),
    months: integer('months').notNull().default(12),
    kinds: jsonb('kinds').$type<string[]>().notNull(),
    last_run_at: timestamp('last_run_at', { withTimezone: true }),
    updated_by: uuid('updated_by'),
    ...timestamps,
  },
  (t) => [check('retention_settings_months_check', sql`${t.months} in (3, 6, 12, 24)`)],
);
