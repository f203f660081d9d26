CREATE TABLE "inbound_receipt_lines" (
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
	CONSTRAINT "inbound_receipt_lines_quantity_check" CHECK ("inbound_receipt_lines"."quantity" > 0),
	CONSTRAINT "inbound_receipt_lines_confirmed_check" CHECK ("inbound_receipt_lines"."accepted_quantity" is null or ("inbound_receipt_lines"."accepted_quantity" >= 0 and "inbound_receipt_lines"."defective_quantity" >= 0
        and "inbound_receipt_lines"."defective_quantity" <= "inbound_receipt_lines"."accepted_quantity"
        and "inbound_receipt_lines"."good_quantity" = "inbound_receipt_lines"."accepted_quantity" - "inbound_receipt_lines"."defective_quantity"))
);
--> statement-breakpoint
CREATE TABLE "inbound_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"category" text DEFAULT 'purchase' NOT NULL,
	"planned_date" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"quick" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_receipts_status_check" CHECK ("inbound_receipts"."status" in ('pending', 'confirmed', 'cancelled')),
	CONSTRAINT "inbound_receipts_category_check" CHECK ("inbound_receipts"."category" in ('purchase', 'consignment', 'transfer', 'return', 'other'))
);
--> statement-breakpoint
CREATE TABLE "stock_balances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"expiry_date" date,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_balances_key" UNIQUE NULLS NOT DISTINCT("customer_id","product_id","location_id","expiry_date"),
	CONSTRAINT "stock_balances_on_hand_check" CHECK ("stock_balances"."on_hand" >= 0),
	CONSTRAINT "stock_balances_reserved_check" CHECK ("stock_balances"."reserved" >= 0 and "stock_balances"."reserved" <= "stock_balances"."on_hand")
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"balance_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"location_id" uuid NOT NULL,
	"expiry_date" date,
	"quantity" integer NOT NULL,
	"on_hand_after" integer NOT NULL,
	"reason" text NOT NULL,
	"document_type" text NOT NULL,
	"document_id" uuid,
	"document_number" text DEFAULT '' NOT NULL,
	"user_id" uuid,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_quantity_check" CHECK ("stock_movements"."quantity" <> 0),
	CONSTRAINT "stock_movements_on_hand_after_check" CHECK ("stock_movements"."on_hand_after" >= 0),
	CONSTRAINT "stock_movements_reason_check" CHECK ("stock_movements"."reason" in ('inbound', 'inbound_cancel', 'outbound', 'outbound_cancel', 'return', 'return_cancel', 'return_to_supplier', 'transfer', 'expiry_transfer', 'adjust', 'stocktake'))
);
--> statement-breakpoint
CREATE TABLE "stock_reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"balance_id" uuid NOT NULL,
	"document_type" text NOT NULL,
	"document_id" uuid NOT NULL,
	"document_number" text DEFAULT '' NOT NULL,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_reservations_quantity_check" CHECK ("stock_reservations"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"line_count" integer NOT NULL,
	"unit_count" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_transfers_kind_check" CHECK ("stock_transfers"."kind" in ('single', 'multi', 'expiry'))
);
--> statement-breakpoint
ALTER TABLE "inbound_receipt_lines" ADD CONSTRAINT "inbound_receipt_lines_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipt_lines" ADD CONSTRAINT "inbound_receipt_lines_receipt_id_inbound_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."inbound_receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipt_lines" ADD CONSTRAINT "inbound_receipt_lines_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipt_lines" ADD CONSTRAINT "inbound_receipt_lines_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipt_lines" ADD CONSTRAINT "inbound_receipt_lines_defective_location_id_storage_locations_id_fk" FOREIGN KEY ("defective_location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipts" ADD CONSTRAINT "inbound_receipts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_receipts" ADD CONSTRAINT "inbound_receipts_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_balances" ADD CONSTRAINT "stock_balances_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_balances" ADD CONSTRAINT "stock_balances_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_balances" ADD CONSTRAINT "stock_balances_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_balances" ADD CONSTRAINT "stock_balances_location_id_storage_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."storage_locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_balance_id_stock_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."stock_balances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_balance_id_stock_balances_id_fk" FOREIGN KEY ("balance_id") REFERENCES "public"."stock_balances"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfers" ADD CONSTRAINT "stock_transfers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_receipt_lines_receipt_line_key" ON "inbound_receipt_lines" USING btree ("receipt_id","line_no");--> statement-breakpoint
CREATE INDEX "inbound_receipt_lines_product_idx" ON "inbound_receipt_lines" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_receipts_customer_number_key" ON "inbound_receipts" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "inbound_receipts_customer_status_idx" ON "inbound_receipts" USING btree ("customer_id","status","planned_date");--> statement-breakpoint
CREATE INDEX "inbound_receipts_customer_planned_idx" ON "inbound_receipts" USING btree ("customer_id","planned_date");--> statement-breakpoint
CREATE INDEX "stock_balances_product_idx" ON "stock_balances" USING btree ("customer_id","product_id","warehouse_id");--> statement-breakpoint
CREATE INDEX "stock_balances_location_idx" ON "stock_balances" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "stock_balances_expiry_idx" ON "stock_balances" USING btree ("customer_id","expiry_date") WHERE "stock_balances"."expiry_date" is not null and "stock_balances"."on_hand" > 0;--> statement-breakpoint
CREATE INDEX "stock_movements_customer_time_idx" ON "stock_movements" USING btree ("customer_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_product_time_idx" ON "stock_movements" USING btree ("customer_id","product_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_location_time_idx" ON "stock_movements" USING btree ("customer_id","location_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_document_idx" ON "stock_movements" USING btree ("customer_id","document_number");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_reservations_document_balance_key" ON "stock_reservations" USING btree ("document_type","document_id","balance_id");--> statement-breakpoint
CREATE INDEX "stock_reservations_balance_idx" ON "stock_reservations" USING btree ("balance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_transfers_customer_number_key" ON "stock_transfers" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "stock_transfers_customer_time_idx" ON "stock_transfers" USING btree ("customer_id","created_at");