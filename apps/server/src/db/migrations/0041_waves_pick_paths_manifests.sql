CREATE TABLE "ship_manifest_parcels" (
	"order_id" uuid PRIMARY KEY NOT NULL,
	"manifest_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"scanned_code" text NOT NULL,
	"scanned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scanned_by" uuid
);
--> statement-breakpoint
CREATE TABLE "ship_manifests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"logistics_provider_id" uuid NOT NULL,
	"number" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_at" timestamp with time zone,
	"created_by" uuid,
	"closed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storage_locations" ADD COLUMN "pick_sequence_manual" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ship_manifest_parcels" ADD CONSTRAINT "ship_manifest_parcels_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifest_parcels" ADD CONSTRAINT "ship_manifest_parcels_manifest_id_ship_manifests_id_fk" FOREIGN KEY ("manifest_id") REFERENCES "public"."ship_manifests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifest_parcels" ADD CONSTRAINT "ship_manifest_parcels_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifest_parcels" ADD CONSTRAINT "ship_manifest_parcels_scanned_by_users_id_fk" FOREIGN KEY ("scanned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifests" ADD CONSTRAINT "ship_manifests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifests" ADD CONSTRAINT "ship_manifests_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifests" ADD CONSTRAINT "ship_manifests_logistics_provider_id_logistics_providers_id_fk" FOREIGN KEY ("logistics_provider_id") REFERENCES "public"."logistics_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifests" ADD CONSTRAINT "ship_manifests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_manifests" ADD CONSTRAINT "ship_manifests_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ship_manifest_parcels_manifest_idx" ON "ship_manifest_parcels" USING btree ("manifest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ship_manifests_customer_number_key" ON "ship_manifests" USING btree ("customer_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "ship_manifests_one_open_key" ON "ship_manifests" USING btree ("customer_id","warehouse_id","logistics_provider_id") WHERE "ship_manifests"."status" = 'open';--> statement-breakpoint
CREATE INDEX "ship_manifests_customer_created_idx" ON "ship_manifests" USING btree ("customer_id","created_at");--> statement-breakpoint
-- hand-written: a sequence already set on a location counts as set by hand, except the one "generate locations" used
-- to give (layer × 1000 + position, the position being the code's last number), which is derived.
UPDATE "storage_locations" SET "pick_sequence_manual" = true
WHERE "pick_sequence" <> 0
  AND "pick_sequence" IS DISTINCT FROM coalesce("layer", 0) * 1000 + coalesce(substring("code" from '-(\d+)$')::int, -1);
