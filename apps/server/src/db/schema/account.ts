import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';

/** A seller company (the tenant). Every seller-owned row carries its id as `customer_id`. */
export const customers = pgTable('customers', {
  id: id(),
  name: text('name').notNull(),
  tax_id: text('tax_id'),
  invoice_title: text('invoice_title'),
  invoice_address: text('invoice_address'),
  phone: text('phone'),
  fax: text('fax'),
  website: text('website'),
  /** Set by the operator's staff (/crm/customer): a deactivated seller's users cannot log in or refresh. */
  is_active: boolean('is_active').notNull().default(true),
  ...timestamps,
});

/** Users of the main area (CUSTOMER, a seller's staff) and of the CRM area (EMPLOYEE, no customer). */
export const users = pgTable(
  'users',
  {
    id: id(),
    customer_id: uuid('customer_id').references(() => customers.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role').notNull(),
    password_hash: text('password_hash').notNull(),
    language: text('language').notNull().default('zh-TW'),
    theme: text('theme').notNull().default('light'),
    /** Where the user's labels print by default: an A4 label sheet or a thermal roll (issue #37). */
    label_format: text('label_format').notNull().default('sheet'),
    is_active: boolean('is_active').notNull().default(true),
    totp_secret_enc: text('totp_secret_enc'),
    totp_enabled: boolean('totp_enabled').notNull().default(false),
    totp_last_step: bigint('totp_last_step', { mode: 'number' }),
    otp_pending_until: timestamp('otp_pending_until', { withTimezone: true }),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }),
    /** The role inside the seller's company (packages/contracts permissions.ts); registration makes the owner. */
    seller_role: text('seller_role').notNull().default('owner'),
    /** The ticked grants of a `custom` role (menu groups, `prices`); empty for the other roles. */
    menu_access: jsonb('menu_access').$type<string[]>().notNull().default([]),
    /** The owner asks this user to turn two-step login on: the web sends them to /two-factor until they do. */
    two_factor_required: boolean('two_factor_required').notNull().default(false),
    /** Invited and the set-password link not used yet. */
    invited_at: timestamp('invited_at', { withTimezone: true }),
    last_login_at: timestamp('last_login_at', { withTimezone: true }),
    /** The password was generated and mailed (registration, a CRM reset): the user must choose their own first. */
    must_change_password: boolean('must_change_password').notNull().default(false),
    /** Wrong passwords given for this account since its last sign-in (any address), told to the user at the next one. */
    failed_logins: integer('failed_logins').notNull().default(0),
    /** When the last of those was given. */
    failed_login_at: timestamp('failed_login_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    check('users_seller_role_check', sql`${t.seller_role} in ('owner', 'office', 'warehouse', 'readonly', 'custom')`),
    index('users_customer_idx').on(t.customer_id),
    check('users_role_check', sql`${t.role} in ('CUSTOMER', 'EMPLOYEE')`),
    check('users_customer_role_check', sql`${t.role} = 'EMPLOYEE' or ${t.customer_id} is not null`),
  ],
);

/**
 * Failed-attempt counters by key (a login e-mail with the client address, an OTP user), so unknown and known e-mails
 * lock the same way. `locks` counts the locks of a key since its last success: each lock lasts twice the last.
 */
export const login_attempts = pgTable('login_attempts', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  locked_until: timestamp('locked_until', { withTimezone: true }),
  locks: integer('locks').notNull().default(0),
  ...timestamps,
});

/** Issued refresh tokens (by jti). A used one that comes back revokes its whole family. */
export const refresh_tokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    family_id: uuid('family_id').notNull(),
    subject_type: text('subject_type').notNull(),
    subject_id: uuid('subject_id').notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('refresh_tokens_family_idx').on(t.family_id),
    index('refresh_tokens_subject_idx').on(t.subject_type, t.subject_id),
    check('refresh_tokens_subject_type_check', sql`${t.subject_type} in ('user', 'member')`),
  ],
);

/** One-time password reset links; only the SHA-256 of the token is stored. */
export const password_resets = pgTable('password_resets', {
  id: id(),
  user_id: uuid('user_id')
    .notNull()
    .references(() => users.id),
  token_hash: text('token_hash').notNull().unique(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  used_at: timestamp('used_at', { withTimezone: true }),
  ...timestamps,
});

/** A seller's online store; members log in at /store/login/{short_url}. */
export const stores = pgTable(
  'stores',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    name: text('name').notNull(),
    short_url: text('short_url').notNull(),
    description: text('description').notNull().default(''),
    /** The store's logo as a small data URL (PNG/JPEG/WebP), shown on the member login page and the portal. */
    logo: text('logo').notNull().default(''),
    /** Closed: members cannot order (login and the delivery list still work). */
    is_open: boolean('is_open').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('stores_short_url_key').on(t.short_url),
    // One online store per seller.
    uniqueIndex('stores_customer_key').on(t.customer_id),
  ],
);

export const store_members = pgTable(
  'store_members',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    store_id: uuid('store_id')
      .notNull()
      .references(() => stores.id),
    email: text('email').notNull(),
    name: text('name').notNull(),
    password_hash: text('password_hash').notNull(),
    phone: text('phone').notNull().default(''),
    /** The default delivery address (prefills the recipient of a direct purchase). */
    postcode: text('postcode').notNull().default(''),
    address: text('address').notNull().default(''),
    is_active: boolean('is_active').notNull().default(true),
    password_changed_at: timestamp('password_changed_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('store_members_store_email_key').on(t.store_id, t.email),
    index('store_members_customer_idx').on(t.customer_id),
  ],
);
