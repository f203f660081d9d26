CREATE TABLE "usage_snapshot_runs" (
	"warehouse_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sellers" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_snapshot_runs_warehouse_id_day_pk" PRIMARY KEY("warehouse_id","day")
);
--> statement-breakpoint
CREATE TABLE "usage_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"month" text NOT NULL,
	"number" text NOT NULL,
	"status" text NOT NULL,
	"lines" jsonb NOT NULL,
	"subtotal" numeric(16, 4) NOT NULL,
	"minimum_fee" numeric(16, 4) NOT NULL,
	"tax_rate" numeric(6, 4) NOT NULL,
	"tax" numeric(16, 4) NOT NULL,
	"total" numeric(16, 4) NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"issued_by" uuid,
	"paid_at" timestamp with time zone,
	"paid_by" uuid,
	"payment_note" text DEFAULT '' NOT NULL,
	"voided_at" timestamp with time zone,
	"voided_by" uuid,
	"void_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_statements_status_check" CHECK ("usage_statements"."status" in ('issued', 'paid', 'void'))
);
--> statement-breakpoint
CREATE TABLE "usage_storage_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"day" date NOT NULL,
	"locations" integer NOT NULL,
	"units" integer NOT NULL,
	"litres" integer NOT NULL,
	"charged_locations" integer NOT NULL,
	"charged_units" integer NOT NULL,
	"charged_litres" integer NOT NULL,
	"free_days" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_charges" ADD COLUMN "statement_id" uuid;--> statement-breakpoint
ALTER TABLE "usage_rate_cards" ADD COLUMN "storage_free_days" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_statements" ADD CONSTRAINT "usage_statements_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_storage_snapshots" ADD CONSTRAINT "usage_storage_snapshots_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_statements_month_open" ON "usage_statements" USING btree ("customer_id","month") WHERE "usage_statements"."status" <> 'void';--> statement-breakpoint
CREATE UNIQUE INDEX "usage_statements_number" ON "usage_statements" USING btree ("customer_id","number");--> statement-breakpoint
CREATE INDEX "usage_statements_month" ON "usage_statements" USING btree ("month");--> statement-breakpoint
CREATE UNIQUE INDEX "usage_storage_snapshots_key" ON "usage_storage_snapshots" USING btree ("warehouse_id","customer_id","day");--> statement-breakpoint
CREATE INDEX "usage_storage_snapshots_customer_day" ON "usage_storage_snapshots" USING btree ("customer_id","day");--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_statement_id_usage_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."usage_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_charges_statement" ON "usage_charges" USING btree ("statement_id","kind");