CREATE TABLE "shopee_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"shop_ref" uuid NOT NULL,
	"order_sn" text NOT NULL,
	"shopee_status" text NOT NULL,
	"state" text NOT NULL,
	"order_id" uuid,
	"problem" jsonb,
	"ship_queued_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shopee_orders_state_check" CHECK ("shopee_orders"."state" in ('created', 'abnormal', 'cancelled', 'flagged'))
);
--> statement-breakpoint
CREATE TABLE "shopee_shops" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"shop_id" bigint NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"platform_id" uuid NOT NULL,
	"state" text DEFAULT 'connected' NOT NULL,
	"access_token_enc" text,
	"refresh_token_enc" text,
	"token_expires_at" timestamp with time zone,
	"refresh_expires_at" timestamp with time zone,
	"last_error_code" text,
	"last_error_message" text,
	"last_error_at" timestamp with time zone,
	"synced_until" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"last_sync_counts" jsonb,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shopee_shops_state_check" CHECK ("shopee_shops"."state" in ('connected', 'error', 'disconnected'))
);
--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD CONSTRAINT "shopee_orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD CONSTRAINT "shopee_orders_shop_ref_shopee_shops_id_fk" FOREIGN KEY ("shop_ref") REFERENCES "public"."shopee_shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD CONSTRAINT "shopee_orders_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopee_shops" ADD CONSTRAINT "shopee_shops_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shopee_shops" ADD CONSTRAINT "shopee_shops_platform_id_ecommerce_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."ecommerce_platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shopee_orders_shop_sn_key" ON "shopee_orders" USING btree ("shop_ref","order_sn");--> statement-breakpoint
CREATE INDEX "shopee_orders_customer_idx" ON "shopee_orders" USING btree ("customer_id","updated_at");--> statement-breakpoint
CREATE INDEX "shopee_orders_order_idx" ON "shopee_orders" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shopee_shops_customer_shop_key" ON "shopee_shops" USING btree ("customer_id","shop_id");--> statement-breakpoint
CREATE INDEX "shopee_shops_shop_idx" ON "shopee_shops" USING btree ("shop_id");