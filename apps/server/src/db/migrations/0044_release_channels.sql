CREATE TABLE "release_channels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"warehouse_id" uuid NOT NULL,
	"name" text NOT NULL,
	"logistics_provider_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"cvs_chain" text,
	"cutoff_time" text,
	"area_id" uuid,
	"priority" text DEFAULT 'all' NOT NULL,
	"max_orders" integer NOT NULL,
	"max_units" integer,
	"sequence" integer DEFAULT 10 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_channels_priority_check" CHECK ("release_channels"."priority" in ('all', 'due', 'late')),
	CONSTRAINT "release_channels_cvs_chain_check" CHECK ("release_channels"."cvs_chain" in ('UNIMART', 'FAMI', 'HILIFE', 'OKMART'))
);
--> statement-breakpoint
-- hand-written: the column is added before the primary key that names it (drizzle-kit emitted it after).
ALTER TABLE "ship_cutoffs" ADD COLUMN "cvs_chain" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ship_cutoffs" DROP CONSTRAINT "ship_cutoffs_warehouse_id_logistics_provider_id_pk";--> statement-breakpoint
ALTER TABLE "ship_cutoffs" ADD CONSTRAINT "ship_cutoffs_warehouse_id_logistics_provider_id_cvs_chain_pk" PRIMARY KEY("warehouse_id","logistics_provider_id","cvs_chain");--> statement-breakpoint
ALTER TABLE "release_channels" ADD CONSTRAINT "release_channels_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_channels" ADD CONSTRAINT "release_channels_warehouse_id_warehouses_id_fk" FOREIGN KEY ("warehouse_id") REFERENCES "public"."warehouses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_channels" ADD CONSTRAINT "release_channels_area_id_areas_id_fk" FOREIGN KEY ("area_id") REFERENCES "public"."areas"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "release_channels_warehouse_name_key" ON "release_channels" USING btree ("customer_id","warehouse_id","name");--> statement-breakpoint
CREATE INDEX "release_channels_customer_sequence_idx" ON "release_channels" USING btree ("customer_id","sequence");--> statement-breakpoint
ALTER TABLE "ship_cutoffs" ADD CONSTRAINT "ship_cutoffs_cvs_chain_check" CHECK ("ship_cutoffs"."cvs_chain" in ('', 'UNIMART', 'FAMI', 'HILIFE', 'OKMART'));