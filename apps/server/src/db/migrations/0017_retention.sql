CREATE TABLE "retention_settings" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"schedule_enabled" boolean DEFAULT false NOT NULL,
	"months" integer DEFAULT 12 NOT NULL,
	"kinds" jsonb NOT NULL,
	"last_run_at" timestamp with time zone,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_settings_months_check" CHECK ("retention_settings"."months" in (3, 6, 12, 24))
);
--> statement-breakpoint
ALTER TABLE "retention_settings" ADD CONSTRAINT "retention_settings_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;