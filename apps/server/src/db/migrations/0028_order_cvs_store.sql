CREATE TABLE "cvs_map_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"logistics_provider_id" uuid NOT NULL,
	"token" text NOT NULL,
	"subtype" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_cvs_stores" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"subtype" text NOT NULL,
	"store_id" text NOT NULL,
	"store_name" text DEFAULT '' NOT NULL,
	"store_address" text DEFAULT '' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"payment_no" text,
	"validation_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_cvs_stores_subtype_check" CHECK ("order_cvs_stores"."subtype" in ('UNIMART', 'FAMI', 'HILIFE', 'OKMART', 'UNIMARTC2C', 'FAMIC2C', 'HILIFEC2C', 'OKMARTC2C')),
	CONSTRAINT "order_cvs_stores_source_check" CHECK ("order_cvs_stores"."source" in ('map', 'import', 'api', 'manual'))
);
--> statement-breakpoint
ALTER TABLE "cvs_map_requests" ADD CONSTRAINT "cvs_map_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cvs_map_requests" ADD CONSTRAINT "cvs_map_requests_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cvs_map_requests" ADD CONSTRAINT "cvs_map_requests_logistics_provider_id_logistics_providers_id_fk" FOREIGN KEY ("logistics_provider_id") REFERENCES "public"."logistics_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_cvs_stores" ADD CONSTRAINT "order_cvs_stores_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_cvs_stores" ADD CONSTRAINT "order_cvs_stores_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cvs_map_requests_token_key" ON "cvs_map_requests" USING btree ("token");--> statement-breakpoint
CREATE INDEX "cvs_map_requests_order_idx" ON "cvs_map_requests" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_cvs_stores_customer_idx" ON "order_cvs_stores" USING btree ("customer_id");