CREATE TABLE "return_receipt_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"receipt_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"product_id" uuid NOT NULL,
	"quantity" integer NOT NULL,
	"expiry_date" date,
	"accepted_quantity" integer,
	"defective_quantity" integer,
	"good_quantity" integer,
	"location_id" uuid,
	"defective_location_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_receipt_lines_quantity_check" CHECK ("return_receipt_lines"."quantity" > 0),
	CONSTRAINT "return_receipt_lines_confirmed_check" CHECK ("return_receipt_lines"."accepted_quantity" is null or ("return_receipt_lines"."accepted_quantity" >= 0 and "return_receipt_lines"."defective_quantity" >= 0
        and "return_receipt_lines"."defective_quantity" <= "return_receipt_lines"."accepted_quantity"
        and "return_receipt_lines"."good_quantity" = "return_receipt_lines"."accepted_quantity" - "return_receipt_lines"."defective_quantity"))
);
--> statement-breakpoint
CREATE TABLE "return_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"category" text DEFAULT 'customer_return' NOT NULL,
	"planned_date" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"order_id" uuid,
	"order_number" text DEFAULT '' NOT NULL,
	"consignment_number" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "return_receipts_status_check" CHECK ("return_receipts"."status" in ('pending', 'confirmed', 'cancelled')),
	CONSTRAINT "return_receipts_category_check" CHECK ("return_receipts"."category" in ('customer_return', 'undeliverable', 'other'))
);
--> statement-breakpoint
CREATE TABLE "supplier_return_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"supplier_return_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"balance_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"expiry_date" date,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_return_lines_quantity_check" CHECK ("supplier_return_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "supplier_returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"reason" text DEFAULT 'defective' NOT NULL,
	"supplier_name" text NOT NULL,
	"supplier_contact" text DEFAULT '' NOT NULL,
	"supplier_phone" text DEFAULT '' NOT NULL,
	"supplier_address" text DEFAULT '' NOT NULL,
	"planned_date" date NOT NULL,
	"consignment_number" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"dispatched_at" timestamp with time zone,
	"dispatched_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supplier_returns_status_check" CHECK ("supplier_returns"."status" in ('reserved', 'dispatched', 'cancelled')),
	CONSTRAINT "supplier_returns_reason_check" CHECK ("supplier_returns"."reason" in ('defective', 'expired', 'overstock', 'wrong_item', 'other'))
);
--> statement-breakpoint
CREATE TABLE "stocktake_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"stocktake_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"expiry_date" date,
	"book_initial" integer DEFAULT 0 NOT NULL,
	"last_round" integer DEFAULT 1 NOT NULL,
	"count_1" integer,
	"book_1" integer,
	"counted_1_at" timestamp with time zone,
	"counted_1_by" uuid,
	"count_2" integer,
	"book_2" integer,
	"counted_2_at" timestamp with time zone,
	"counted_2_by" uuid,
	"count_3" integer,
	"book_3" integer,
	"counted_3_at" timestamp with time zone,
	"counted_3_by" uuid,
	"variance" integer,
	"on_hand_after" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stocktake_lines_key" UNIQUE NULLS NOT DISTINCT("stocktake_id","location_id","product_id","expiry_date"),
	CONSTRAINT "stocktake_lines_last_round_check" CHECK ("stocktake_lines"."last_round" between 1 and 3),
	CONSTRAINT "stocktake_lines_counts_check" CHECK (coalesce("stocktake_lines"."count_1", 0) >= 0 and coalesce("stocktake_lines"."count_2", 0) >= 0 and coalesce("stocktake_lines"."count_3", 0) >= 0
        and coalesce("stocktake_lines"."book_1", 0) >= 0 and coalesce("stocktake_lines"."book_2", 0) >= 0 and coalesce("stocktake_lines"."book_3", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "stocktake_locations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"stocktake_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"counted_1_at" timestamp with time zone,
	"counted_2_at" timestamp with time zone,
	"counted_3_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stocktake_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"stocktake_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stocktakes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"name" text NOT NULL,
	"year" integer NOT NULL,
	"attribute" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'first' NOT NULL,
	"scope" text DEFAULT 'location' NOT NULL,
	"sample_size" integer,
	"remark" text DEFAULT '' NOT NULL,
	"round_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" uuid,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stocktakes_type_check" CHECK ("stocktakes"."type" in ('full', 'first', 'review', 'third', 'random')),
	CONSTRAINT "stocktakes_status_check" CHECK ("stocktakes"."status" in ('first', 'review', 'third', 'closed', 'cancelled')),
	CONSTRAINT "stocktakes_scope_check" CHECK ("stocktakes"."scope" in ('location', 'product')),
	CONSTRAINT "stocktakes_sample_size_check" CHECK ("stocktakes"."sample_size" is null or "stocktakes"."sample_size" > 0),
	CONSTRAINT "stocktakes_year_check" CHECK ("stocktakes"."year" between 2000 and 2999)
);
--> statement-breakpoint
ALTER TABLE "return_receipt_lines" ADD CONSTRAINT "return_receipt_lines_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipt_lines" ADD CONSTRAINT "return_receipt_lines_receipt_id_return_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."return_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipt_lines" ADD CONSTRAINT "return_receipt_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipt_lines" ADD CONSTRAINT "return_receipt_lines_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipt_lines" ADD CONSTRAINT "return_receipt_lines_defective_location_id_storage_locations_id_fk" FOREIGN KEY ("defective_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipts" ADD CONSTRAINT "return_receipts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipts" ADD CONSTRAINT "return_receipts_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "return_receipts" ADD CONSTRAINT "return_receipts_order_id_outbound_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."outbound_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_return_lines" ADD CONSTRAINT "supplier_return_lines_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_return_lines" ADD CONSTRAINT "supplier_return_lines_supplier_return_id_supplier_returns_id_fk" FOREIGN KEY ("supplier_return_id") REFERENCES "public"."supplier_returns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_return_lines" ADD CONSTRAINT "supplier_return_lines_balance_id_stock_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."stock_balances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_return_lines" ADD CONSTRAINT "supplier_return_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_return_lines" ADD CONSTRAINT "supplier_return_lines_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_returns" ADD CONSTRAINT "supplier_returns_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "supplier_returns" ADD CONSTRAINT "supplier_returns_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_lines" ADD CONSTRAINT "stocktake_lines_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_lines" ADD CONSTRAINT "stocktake_lines_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_lines" ADD CONSTRAINT "stocktake_lines_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_lines" ADD CONSTRAINT "stocktake_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_locations" ADD CONSTRAINT "stocktake_locations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_locations" ADD CONSTRAINT "stocktake_locations_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_locations" ADD CONSTRAINT "stocktake_locations_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_products" ADD CONSTRAINT "stocktake_products_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_products" ADD CONSTRAINT "stocktake_products_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktake_products" ADD CONSTRAINT "stocktake_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "return_receipt_lines_receipt_line_key" ON "return_receipt_lines" USING btree ("receipt_id","line_no");--> statement-breakpoint
CREATE INDEX "return_receipt_lines_product_idx" ON "return_receipt_lines" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "return_receipts_customer_number_key" ON "return_receipts" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "return_receipts_customer_status_idx" ON "return_receipts" USING btree ("customer_id","status","planned_date");--> statement-breakpoint
CREATE INDEX "return_receipts_customer_planned_idx" ON "return_receipts" USING btree ("customer_id","planned_date");--> statement-breakpoint
CREATE INDEX "return_receipts_order_idx" ON "return_receipts" USING btree ("customer_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "supplier_return_lines_doc_line_key" ON "supplier_return_lines" USING btree ("supplier_return_id","line_no");--> statement-breakpoint
CREATE UNIQUE INDEX "supplier_return_lines_doc_balance_key" ON "supplier_return_lines" USING btree ("supplier_return_id","balance_id");--> statement-breakpoint
CREATE INDEX "supplier_return_lines_product_idx" ON "supplier_return_lines" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE INDEX "supplier_return_lines_balance_idx" ON "supplier_return_lines" USING btree ("balance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "supplier_returns_customer_number_key" ON "supplier_returns" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "supplier_returns_customer_status_idx" ON "supplier_returns" USING btree ("customer_id","status","planned_date");--> statement-breakpoint
CREATE INDEX "stocktake_lines_sheet_round_idx" ON "stocktake_lines" USING btree ("stocktake_id","last_round");--> statement-breakpoint
CREATE INDEX "stocktake_lines_product_idx" ON "stocktake_lines" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stocktake_locations_sheet_location_key" ON "stocktake_locations" USING btree ("stocktake_id","location_id");--> statement-breakpoint
CREATE INDEX "stocktake_locations_location_idx" ON "stocktake_locations" USING btree ("customer_id","location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stocktake_products_sheet_product_key" ON "stocktake_products" USING btree ("stocktake_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stocktakes_customer_number_key" ON "stocktakes" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "stocktakes_customer_status_idx" ON "stocktakes" USING btree ("customer_id","status","created_at");