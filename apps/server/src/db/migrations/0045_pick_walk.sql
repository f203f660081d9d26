CREATE TABLE "pick_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"scan_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"expiry_date" date,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pick_scans_kind_check" CHECK ("pick_scans"."kind" in ('pick', 'short')),
	CONSTRAINT "pick_scans_quantity_check" CHECK ("pick_scans"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "pick_totes" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"slot" integer NOT NULL,
	"tote_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pick_scans" ADD CONSTRAINT "pick_scans_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_scans" ADD CONSTRAINT "pick_scans_batch_id_collection_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."collection_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_scans" ADD CONSTRAINT "pick_scans_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_scans" ADD CONSTRAINT "pick_scans_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_scans" ADD CONSTRAINT "pick_scans_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_totes" ADD CONSTRAINT "pick_totes_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_totes" ADD CONSTRAINT "pick_totes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pick_totes" ADD CONSTRAINT "pick_totes_batch_id_collection_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."collection_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pick_scans_customer_scan_key" ON "pick_scans" USING btree ("customer_id","scan_id","order_id");--> statement-breakpoint
CREATE INDEX "pick_scans_batch_idx" ON "pick_scans" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pick_totes_customer_code_key" ON "pick_totes" USING btree ("customer_id","tote_code");--> statement-breakpoint
CREATE UNIQUE INDEX "pick_totes_batch_slot_key" ON "pick_totes" USING btree ("batch_id","slot");