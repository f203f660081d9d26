CREATE TABLE "label_sheets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"cells" integer NOT NULL,
	"columns" integer NOT NULL,
	"rows" integer NOT NULL,
	"page_width_mm" double precision DEFAULT 210 NOT NULL,
	"page_height_mm" double precision DEFAULT 297 NOT NULL,
	"label_width_mm" double precision NOT NULL,
	"label_height_mm" double precision NOT NULL,
	"margin_left_mm" double precision NOT NULL,
	"margin_top_mm" double precision NOT NULL,
	"pitch_x_mm" double precision NOT NULL,
	"pitch_y_mm" double precision NOT NULL,
	"offset_x_mm" double precision DEFAULT 0 NOT NULL,
	"offset_y_mm" double precision DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "label_sheets_customer_code_key" UNIQUE NULLS NOT DISTINCT("customer_id","code"),
	CONSTRAINT "label_sheets_grid_check" CHECK ("label_sheets"."columns" >= 1 and "label_sheets"."rows" >= 1 and "label_sheets"."cells" = "label_sheets"."columns" * "label_sheets"."rows")
);
--> statement-breakpoint
CREATE TABLE "packaging_materials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"category" text DEFAULT '' NOT NULL,
	"quantity" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "packaging_materials_quantity_check" CHECK ("packaging_materials"."quantity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ecommerce_platforms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"store_number" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"callback_enabled" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logistics_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"merchant_id" text DEFAULT '' NOT NULL,
	"hash_key_enc" text,
	"hash_iv_enc" text,
	"hash_key_hint" text DEFAULT '' NOT NULL,
	"hash_iv_hint" text DEFAULT '' NOT NULL,
	"contract_type" text,
	"temperature_code" text,
	"specification_code" text,
	"billing_basis" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "logistics_providers_contract_type_check" CHECK ("logistics_providers"."contract_type" is null or "logistics_providers"."contract_type" in ('11', '21', '31')),
	CONSTRAINT "logistics_providers_temperature_check" CHECK ("logistics_providers"."temperature_code" is null or "logistics_providers"."temperature_code" in ('0001', '0002', '0003', '001', '003', '008')),
	CONSTRAINT "logistics_providers_specification_check" CHECK ("logistics_providers"."specification_code" is null or "logistics_providers"."specification_code" in ('0001', '0002', '0003', '0004')),
	CONSTRAINT "logistics_providers_billing_check" CHECK ("logistics_providers"."billing_basis" is null or "logistics_providers"."billing_basis" in ('001', '002'))
);
--> statement-breakpoint
ALTER TABLE "label_sheets" ADD CONSTRAINT "label_sheets_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packaging_materials" ADD CONSTRAINT "packaging_materials_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecommerce_platforms" ADD CONSTRAINT "ecommerce_platforms_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logistics_providers" ADD CONSTRAINT "logistics_providers_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "packaging_materials_customer_code_key" ON "packaging_materials" USING btree ("customer_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "ecommerce_platforms_customer_code_key" ON "ecommerce_platforms" USING btree ("customer_id","code");--> statement-breakpoint
CREATE INDEX "ecommerce_platforms_customer_idx" ON "ecommerce_platforms" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "logistics_providers_customer_code_key" ON "logistics_providers" USING btree ("customer_id","code");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_default_logistics_provider_id_logistics_providers_id_fk" FOREIGN KEY ("default_logistics_provider_id") REFERENCES "public"."logistics_providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_default_platform_id_ecommerce_platforms_id_fk" FOREIGN KEY ("default_platform_id") REFERENCES "public"."ecommerce_platforms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_category_idx" ON "products" USING btree ("category_id");