CREATE TABLE "seller_ship_slas" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"before_time" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ship_cutoffs" (
	"customer_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"logistics_provider_id" uuid NOT NULL,
	"cutoff_time" text NOT NULL,
	"pickup_time" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ship_cutoffs_warehouse_id_logistics_provider_id_pk" PRIMARY KEY("warehouse_id","logistics_provider_id")
);
--> statement-breakpoint
CREATE TABLE "warehouse_holidays" (
	"customer_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "warehouse_holidays_warehouse_id_day_pk" PRIMARY KEY("warehouse_id","day")
);
--> statement-breakpoint
CREATE TABLE "warehouse_ship_days" (
	"warehouse_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"weekdays" integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbound_orders" ADD COLUMN "ship_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "seller_ship_slas" ADD CONSTRAINT "seller_ship_slas_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_cutoffs" ADD CONSTRAINT "ship_cutoffs_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_cutoffs" ADD CONSTRAINT "ship_cutoffs_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_cutoffs" ADD CONSTRAINT "ship_cutoffs_logistics_provider_id_logistics_providers_id_fk" FOREIGN KEY ("logistics_provider_id") REFERENCES "public"."logistics_providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_holidays" ADD CONSTRAINT "warehouse_holidays_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_holidays" ADD CONSTRAINT "warehouse_holidays_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_ship_days" ADD CONSTRAINT "warehouse_ship_days_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "warehouse_ship_days" ADD CONSTRAINT "warehouse_ship_days_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbound_orders_customer_ship_by_idx" ON "outbound_orders" USING btree ("customer_id","ship_by");