CREATE TABLE "carrier_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"logistics_provider_id" uuid NOT NULL,
	"order_id" uuid,
	"carrier" text NOT NULL,
	"merchant_trade_no" text DEFAULT '' NOT NULL,
	"logistics_id" text DEFAULT '' NOT NULL,
	"booking_note" text DEFAULT '' NOT NULL,
	"status_code" text NOT NULL,
	"status_text" text DEFAULT '' NOT NULL,
	"status_at" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "logistics_providers" ADD COLUMN "carrier_type" text;--> statement-breakpoint
ALTER TABLE "carrier_events" ADD CONSTRAINT "carrier_events_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_events" ADD CONSTRAINT "carrier_events_logistics_provider_id_logistics_providers_id_fk" FOREIGN KEY ("logistics_provider_id") REFERENCES "public"."logistics_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_events" ADD CONSTRAINT "carrier_events_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_events_dedupe_key" ON "carrier_events" USING btree ("logistics_provider_id","merchant_trade_no","logistics_id","status_code","status_at");--> statement-breakpoint
CREATE INDEX "carrier_events_order_idx" ON "carrier_events" USING btree ("order_id","created_at");--> statement-breakpoint
ALTER TABLE "logistics_providers" ADD CONSTRAINT "logistics_providers_carrier_type_check" CHECK ("logistics_providers"."carrier_type" is null or "logistics_providers"."carrier_type" in ('ecpay', 'tcat'));