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
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
ALTER TABLE "outbox_messages" ADD COLUMN "ordering_key" text;--> statement-breakpoint
ALTER TABLE "api_settings" ADD CONSTRAINT "api_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_settings" ADD CONSTRAINT "api_settings_connection_id_api_settings_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."api_settings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_settings_customer_name_idx" ON "api_settings" USING btree ("customer_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "api_settings_key_hash_idx" ON "api_settings" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_settings_customer_idx" ON "api_settings" USING btree ("customer_id","kind");--> statement-breakpoint
CREATE INDEX "outbox_messages_ordering_idx" ON "outbox_messages" USING btree ("ordering_key","created_at");