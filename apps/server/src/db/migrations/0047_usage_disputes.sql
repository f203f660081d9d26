CREATE TABLE "usage_disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"statement_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"event_id" uuid,
	"ticket_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"correction_id" uuid,
	"created_by" uuid,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_disputes_status_check" CHECK ("usage_disputes"."status" in ('open', 'corrected', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "usage_charges" DROP CONSTRAINT "usage_charges_quantity_check";--> statement-breakpoint
ALTER TABLE "usage_charges" DROP CONSTRAINT "usage_charges_amount_check";--> statement-breakpoint
ALTER TABLE "usage_charges" ADD COLUMN "corrects_id" uuid;--> statement-breakpoint
ALTER TABLE "usage_disputes" ADD CONSTRAINT "usage_disputes_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_disputes" ADD CONSTRAINT "usage_disputes_statement_id_usage_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."usage_statements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_disputes" ADD CONSTRAINT "usage_disputes_event_id_usage_charges_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."usage_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_disputes" ADD CONSTRAINT "usage_disputes_correction_id_usage_charges_id_fk" FOREIGN KEY ("correction_id") REFERENCES "public"."usage_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_disputes_statement" ON "usage_disputes" USING btree ("statement_id");--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_corrects_id_usage_charges_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."usage_charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_charges_corrects" ON "usage_charges" USING btree ("corrects_id");--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_quantity_check" CHECK ("usage_charges"."quantity" > 0 or "usage_charges"."corrects_id" is not null);--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_amount_check" CHECK ("usage_charges"."amount" >= 0 or "usage_charges"."corrects_id" is not null);