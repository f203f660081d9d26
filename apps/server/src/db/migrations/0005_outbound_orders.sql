CREATE TABLE "collection_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"warehouse_id" uuid,
	"remark" text DEFAULT '' NOT NULL,
	"picking_started_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_import_forms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"platform_id" uuid,
	"name" text NOT NULL,
	"header_row" integer DEFAULT 1 NOT NULL,
	"mapping" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_import_forms_header_row_check" CHECK ("order_import_forms"."header_row" between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "outbound_column_settings" (
	"customer_id" uuid NOT NULL,
	"screen" text NOT NULL,
	"columns" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_column_settings_customer_id_screen_pk" PRIMARY KEY("customer_id","screen"),
	CONSTRAINT "outbound_column_settings_screen_check" CHECK ("outbound_column_settings"."screen" in ('deliver_list', 'deliver_export'))
);
--> statement-breakpoint
CREATE TABLE "outbound_order_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" numeric(14, 2),
	"source_row" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_order_lines_quantity_check" CHECK ("outbound_order_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "outbound_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"platform_order_number" text,
	"third_party_number" text,
	"consignment_number" text,
	"shipping_date" date,
	"category" text DEFAULT 'normal' NOT NULL,
	"channel" text DEFAULT 'manual' NOT NULL,
	"is_cross_border" boolean DEFAULT false NOT NULL,
	"recipient_name" text NOT NULL,
	"recipient_phone" text DEFAULT '' NOT NULL,
	"recipient_mobile" text DEFAULT '' NOT NULL,
	"recipient_postcode" text DEFAULT '' NOT NULL,
	"recipient_address" text DEFAULT '' NOT NULL,
	"sender_name" text DEFAULT '' NOT NULL,
	"sender_phone" text DEFAULT '' NOT NULL,
	"sender_postcode" text DEFAULT '' NOT NULL,
	"sender_address" text DEFAULT '' NOT NULL,
	"shipping_remark" text DEFAULT '' NOT NULL,
	"warehouse_id" uuid,
	"arrival_date" date,
	"arrival_time_slot" text,
	"logistics_provider_id" uuid,
	"platform_id" uuid,
	"cod" boolean DEFAULT false NOT NULL,
	"cod_amount" numeric(14, 2),
	"total_amount" numeric(14, 2),
	"piece_count" integer DEFAULT 1 NOT NULL,
	"volume" text,
	"status" text DEFAULT 'pending_export' NOT NULL,
	"status_before_cancel" text,
	"abnormal_code" text,
	"abnormal_params" jsonb,
	"batch_id" uuid,
	"created_by" uuid,
	"exported_at" timestamp with time zone,
	"online_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_orders_status_check" CHECK ("outbound_orders"."status" in ('pending_export', 'exported', 'cancel_export', 'online', 'closed', 'returned', 'closed_returned', 'cancelled')),
	CONSTRAINT "outbound_orders_status_before_cancel_check" CHECK ("outbound_orders"."status_before_cancel" is null or "outbound_orders"."status_before_cancel" in ('exported', 'online')),
	CONSTRAINT "outbound_orders_channel_check" CHECK ("outbound_orders"."channel" in ('ecommerce', 'store', 'api', 'manual', 'other')),
	CONSTRAINT "outbound_orders_category_check" CHECK ("outbound_orders"."category" in ('normal', 'presale', 'replacement', 'sample', 'wholesale', 'other')),
	CONSTRAINT "outbound_orders_time_slot_check" CHECK ("outbound_orders"."arrival_time_slot" is null or "outbound_orders"."arrival_time_slot" in ('morning', 'afternoon', 'any')),
	CONSTRAINT "outbound_orders_volume_check" CHECK ("outbound_orders"."volume" is null or "outbound_orders"."volume" in ('0001', '0002', '0003', '0004')),
	CONSTRAINT "outbound_orders_piece_count_check" CHECK ("outbound_orders"."piece_count" between 1 and 99),
	CONSTRAINT "outbound_orders_amounts_check" CHECK (coalesce("outbound_orders"."cod_amount", 0) >= 0 and coalesce("outbound_orders"."total_amount", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "outbound_pack_items" (
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"expected" integer NOT NULL,
	"packed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_pack_items_order_id_product_id_pk" PRIMARY KEY("order_id","product_id"),
	CONSTRAINT "outbound_pack_items_packed_check" CHECK ("outbound_pack_items"."packed" >= 0 and "outbound_pack_items"."packed" <= "outbound_pack_items"."expected")
);
--> statement-breakpoint
CREATE TABLE "outbound_packaging_uses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"packaging_material_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbound_packaging_uses_quantity_check" CHECK ("outbound_packaging_uses"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "outbound_serials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"serial" text NOT NULL,
	"created_by" uuid,
	"returned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "collection_batches" ADD CONSTRAINT "collection_batches_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collection_batches" ADD CONSTRAINT "collection_batches_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_import_forms" ADD CONSTRAINT "order_import_forms_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_import_forms" ADD CONSTRAINT "order_import_forms_platform_id_ecommerce_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."ecommerce_platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_column_settings" ADD CONSTRAINT "outbound_column_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_order_lines" ADD CONSTRAINT "outbound_order_lines_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_order_lines" ADD CONSTRAINT "outbound_order_lines_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_order_lines" ADD CONSTRAINT "outbound_order_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_orders" ADD CONSTRAINT "outbound_orders_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_orders" ADD CONSTRAINT "outbound_orders_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_orders" ADD CONSTRAINT "outbound_orders_logistics_provider_id_logistics_providers_id_fk" FOREIGN KEY ("logistics_provider_id") REFERENCES "public"."logistics_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_orders" ADD CONSTRAINT "outbound_orders_platform_id_ecommerce_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."ecommerce_platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_orders" ADD CONSTRAINT "outbound_orders_batch_id_collection_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."collection_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_pack_items" ADD CONSTRAINT "outbound_pack_items_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_pack_items" ADD CONSTRAINT "outbound_pack_items_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_pack_items" ADD CONSTRAINT "outbound_pack_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_packaging_uses" ADD CONSTRAINT "outbound_packaging_uses_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_packaging_uses" ADD CONSTRAINT "outbound_packaging_uses_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_packaging_uses" ADD CONSTRAINT "outbound_packaging_uses_packaging_material_id_packaging_materials_id_fk" FOREIGN KEY ("packaging_material_id") REFERENCES "public"."packaging_materials"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_serials" ADD CONSTRAINT "outbound_serials_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_serials" ADD CONSTRAINT "outbound_serials_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_serials" ADD CONSTRAINT "outbound_serials_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "collection_batches_customer_number_key" ON "collection_batches" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "collection_batches_customer_created_idx" ON "collection_batches" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_import_forms_customer_platform_key" ON "order_import_forms" USING btree ("customer_id",coalesce("platform_id", '00000000-0000-0000-0000-000000000000'::uuid));--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_order_lines_order_line_key" ON "outbound_order_lines" USING btree ("order_id","line_no");--> statement-breakpoint
CREATE INDEX "outbound_order_lines_product_idx" ON "outbound_order_lines" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_orders_customer_number_key" ON "outbound_orders" USING btree ("customer_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_orders_platform_order_key" ON "outbound_orders" USING btree ("customer_id",coalesce("platform_id", '00000000-0000-0000-0000-000000000000'::uuid),"platform_order_number") WHERE "outbound_orders"."platform_order_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_orders_consignment_key" ON "outbound_orders" USING btree ("customer_id","consignment_number") WHERE "outbound_orders"."consignment_number" is not null;--> statement-breakpoint
CREATE INDEX "outbound_orders_customer_status_idx" ON "outbound_orders" USING btree ("customer_id","status","created_at");--> statement-breakpoint
CREATE INDEX "outbound_orders_customer_created_idx" ON "outbound_orders" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "outbound_orders_customer_shipping_idx" ON "outbound_orders" USING btree ("customer_id","shipping_date");--> statement-breakpoint
CREATE INDEX "outbound_orders_customer_platform_number_idx" ON "outbound_orders" USING btree ("customer_id","platform_order_number");--> statement-breakpoint
CREATE INDEX "outbound_orders_batch_idx" ON "outbound_orders" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "outbound_packaging_uses_order_idx" ON "outbound_packaging_uses" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "outbound_packaging_uses_material_idx" ON "outbound_packaging_uses" USING btree ("packaging_material_id");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_serials_customer_serial_key" ON "outbound_serials" USING btree ("customer_id","serial") WHERE "outbound_serials"."returned_at" is null;--> statement-breakpoint
CREATE INDEX "outbound_serials_customer_serial_idx" ON "outbound_serials" USING btree ("customer_id","serial");--> statement-breakpoint
CREATE INDEX "outbound_serials_order_idx" ON "outbound_serials" USING btree ("order_id");