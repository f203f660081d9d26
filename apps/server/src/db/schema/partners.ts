import { sql } from 'drizzle-orm';
import { boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, timestamps } from './_columns';
import { customers } from './account';

/**
 * A logistics provider (carrier contract) of a seller. The hash key and IV are AES-256-GCM encrypted at rest
 * (platform/crypto encryptSecret) and never leave the server in clear.
 */
export const logistics_providers = pgTable(
  'logistics_providers',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    merchant_id: text('merchant_id').notNull().default(''),
    hash_key_enc: text('hash_key_enc'),
    hash_iv_enc: text('hash_iv_enc'),
    /** Last characters of the key and IV, kept to show them masked without decrypting. */
    hash_key_hint: text('hash_key_hint').notNull().default(''),
    hash_iv_hint: text('hash_iv_hint').notNull().default(''),
    /** Payment terms of the contract: 11 monthly, 21 collect on arrival, 31 cash. */
    contract_type: text('contract_type'),
    /** Temperature layer: 0001/0002/0003 (T-cat, ECPay) or 001/003/008 (HCT). */
    temperature_code: text('temperature_code'),
    /** Package size: 0001 60 cm … 0004 150 cm. */
    specification_code: text('specification_code'),
    /** Billing basis: 001 total weight, 002 total length. */
    billing_basis: text('billing_basis'),
    /** Carrier API this contract gets consignment numbers from: null (typed/imported), 'ecpay' (ECPay logistics), 'tcat'. */
    carrier_type: text('carrier_type'),
    /** The sender on this contract's consignments, checked against the carrier's rules when saved. */
    sender_name: text('sender_name').notNull().default(''),
    sender_phone: text('sender_phone').notNull().default(''),
    sender_postcode: text('sender_postcode').notNull().default(''),
    sender_address: text('sender_address').notNull().default(''),
    is_active: boolean('is_active').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('logistics_providers_customer_code_key').on(t.customer_id, t.code),
    check(
      'logistics_providers_contract_type_check',
      sql`${t.contract_type} is null or ${t.contract_type} in ('11', '21', '31')`,
    ),
    check(
      'logistics_providers_temperature_check',
      sql`${t.temperature_code} is null or ${t.temperature_code} in ('0001', '0002', '0003', '001', '003', '008')`,
    ),
    check(
      'logistics_providers_specification_check',
      sql`${t.specification_code} is null or ${t.specification_code} in ('0001', '0002', '0003', '0004')`,
    ),
    check(
      'logistics_providers_carrier_type_check',
      sql`${t.carrier_type} is null or ${t.carrier_type} in ('ecpay', 'tcat')`,
    ),
    check('logistics_providers_billing_check', sql`${t.billing_basis} is null or ${t.billing_basis} in ('001', '002')`),
  ],
);

/** An e-commerce platform (sales channel) of a seller: a Shopee shop, the seller's own web store, … */
export const ecommerce_platforms = pgTable(
  'ecommerce_platforms',
  {
    id: id(),
    customer_id: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    store_number: text('store_number').notNull().default(''),
    url: text('url').notNull().default(''),
    callback_enabled: boolean('callback_enabled').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('ecommerce_platforms_customer_code_key').on(t.customer_id, t.code),
    index('ecommerce_platforms_customer_idx').on(t.customer_id),
  ],
);
