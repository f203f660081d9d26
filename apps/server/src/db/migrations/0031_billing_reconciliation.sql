CREATE TABLE "billing_reconciliation_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"day" date NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"customer_id" uuid,
	"payment_id" uuid,
	"order_number" text NOT NULL,
	"provider_transaction_id" text,
	"our_amount" numeric(14, 4),
	"their_amount" numeric(14, 4),
	"our_status" text,
	"their_status" text,
	"status" text DEFAULT 'open' NOT NULL,
	"resolution" text,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_reconciliation_items_kind_check" CHECK ("billing_reconciliation_items"."kind" in ('missing_here', 'not_found_there', 'amount_differs')),
	CONSTRAINT "billing_reconciliation_items_status_check" CHECK ("billing_reconciliation_items"."status" in ('open', 'resolved'))
);
--> statement-breakpoint
ALTER TABLE "billing_reconciliation_items" ADD CONSTRAINT "billing_reconciliation_items_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_reconciliation_items" ADD CONSTRAINT "billing_reconciliation_items_payment_id_billing_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."billing_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_reconciliation_items_key" ON "billing_reconciliation_items" USING btree ("day","provider","kind","order_number");--> statement-breakpoint
CREATE INDEX "billing_reconciliation_items_status_idx" ON "billing_reconciliation_items" USING btree ("status","day");