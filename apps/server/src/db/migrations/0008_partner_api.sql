CREATE TABLE "api_idempotency_keys" (
	"setting_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"resource_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_idempotency_keys_setting_id_key_pk" PRIMARY KEY("setting_id","key")
);
--> statement-breakpoint
CREATE TABLE "api_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"key_hash" text,
	"key_prefix" text,
	"key_issued_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"rate_limit_per_minute" integer DEFAULT 120 NOT NULL,
	"callback_url" text,
	"http_headers_enc" text,
	"http_header_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"order_callback_enabled" boolean DEFAULT false NOT NULL,
	"callback_events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"signing_secret_enc" text,
	"connection_id" uuid,
	"base_url" text,
	"token_url" text,
	"user_name" text,
	"password_enc" text,
	"access_token_enc" text,
	"refresh_token_enc" text,
	"secret_hints" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"token_expires_at" timestamp with time zone,
	"last_test_at" timestamp with time zone,
	"last_test_ok" boolean,
	"last_test_message" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_settings_kind_check" CHECK ("api_settings"."kind" in ('partner', 'connection'))
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"type" text NOT NULL,
	"order_number" text NOT NULL,
	"platform_order_number" text,
	"status" text NOT NULL,
	"previous_status" text,
	"consignment_number" text,
	"dispatched_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "ordering_key" text;--> statement-breakpoint
ALTER TABLE "api_idempotency_keys" ADD CONSTRAINT "api_idempotency_keys_setting_id_api_settings_id_fk" FOREIGN KEY ("setting_id") REFERENCES "public"."api_settings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_settings" ADD CONSTRAINT "api_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_settings" ADD CONSTRAINT "api_settings_connection_id_api_settings_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."api_settings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_settings_customer_name_idx" ON "api_settings" USING btree ("customer_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "api_settings_key_hash_idx" ON "api_settings" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_settings_customer_idx" ON "api_settings" USING btree ("customer_id","kind");--> statement-breakpoint
CREATE INDEX "order_events_pending_idx" ON "order_events" USING btree ("customer_id","id") WHERE "order_events"."dispatched_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_messages_ordering_idx" ON "outbox_messages" USING btree ("ordering_key","created_at");--> statement-breakpoint
CREATE OR REPLACE FUNCTION wms_order_events_inserted() RETURNS trigger AS $$
BEGIN
  -- Statement level: one check per statement, however many orders an import inserts.
  IF NOT EXISTS (SELECT 1 FROM api_settings WHERE kind = 'partner' AND enabled AND order_callback_enabled) THEN
    RETURN NULL;
  END IF;
  INSERT INTO order_events (customer_id, order_id, type, order_number, platform_order_number, status, previous_status, consignment_number)
  SELECT n.customer_id, n.id, 'order.created', n.number, n.platform_order_number, n.status, NULL, n.consignment_number
  FROM new_rows n
  WHERE n.customer_id IN (SELECT customer_id FROM api_settings WHERE kind = 'partner' AND enabled AND order_callback_enabled)
  ORDER BY n.number;
  PERFORM pg_notify('wms_order_events', c.customer_id::text)
  FROM (SELECT DISTINCT customer_id FROM new_rows
        WHERE customer_id IN (SELECT customer_id FROM api_settings WHERE kind = 'partner' AND enabled AND order_callback_enabled)) c;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION wms_order_events_updated() RETURNS trigger AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM api_settings WHERE kind = 'partner' AND enabled AND order_callback_enabled) THEN
    RETURN NULL;
  END IF;
  -- A status change, and a consignment number (after the status change when one update does both).
  INSERT INTO order_events (customer_id, order_id, type, order_number, platform_order_number, status, previous_status, consignment_number)
  SELECT n.customer_id, n.id, e.type, n.number, n.platform_order_number, n.status, o.status, n.consignment_number
  FROM new_rows n
  JOIN old_rows o ON o.id = n.id
  CROSS JOIN (VALUES (1, 'order.status_changed'), (2, 'order.consignment_number')) AS e(k, type)
  WHERE n.customer_id IN (SELECT customer_id FROM api_settings WHERE kind = 'partner' AND enabled AND order_callback_enabled)
    AND ((e.k = 1 AND n.status IS DISTINCT FROM o.status)
      OR (e.k = 2 AND n.consignment_number IS DISTINCT FROM o.consignment_number))
  ORDER BY n.number, e.k;
  PERFORM pg_notify('wms_order_events', c.customer_id::text)
  FROM (SELECT DISTINCT n.customer_id FROM new_rows n JOIN old_rows o ON o.id = n.id
        WHERE (n.status IS DISTINCT FROM o.status OR n.consignment_number IS DISTINCT FROM o.consignment_number)
          AND n.customer_id IN (SELECT customer_id FROM api_settings WHERE kind = 'partner' AND enabled AND order_callback_enabled)) c;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER outbound_orders_events_inserted AFTER INSERT ON outbound_orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wms_order_events_inserted();
--> statement-breakpoint
CREATE TRIGGER outbound_orders_events_updated AFTER UPDATE ON outbound_orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION wms_order_events_updated();
