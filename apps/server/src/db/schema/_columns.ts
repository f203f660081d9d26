import { customType, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Columns every table carries. */
export const id = () => uuid('id').primaryKey().defaultRandom();
export const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/** Binary content (an uploaded file, a carrier's label PDF). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});
