CREATE TABLE "usage_charges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"source_type" text NOT NULL,
	"source_id" uuid NOT NULL,
	"document_number" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"day" date NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price" numeric(14, 4) NOT NULL,
	"amount" numeric(14, 4) NOT NULL,
	"rate_card_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_charges_quantity_check" CHECK ("usage_charges"."quantity" > 0),
	CONSTRAINT "usage_charges_amount_check" CHECK ("usage_charges"."amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "usage_rate_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid,
	"valid_from" date NOT NULL,
	"rates" jsonb NOT NULL,
	"tax_rate" numeric(6, 4) DEFAULT '0.05' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_rate_cards_owner_day" UNIQUE NULLS NOT DISTINCT("customer_id","valid_from")
);
--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_charges" ADD CONSTRAINT "usage_charges_rate_card_id_usage_rate_cards_id_fk" FOREIGN KEY ("rate_card_id") REFERENCES "public"."usage_rate_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_rate_cards" ADD CONSTRAINT "usage_rate_cards_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_charges_source_kind" ON "usage_charges" USING btree ("source_type","source_id","kind");--> statement-breakpoint
CREATE INDEX "usage_charges_customer_day" ON "usage_charges" USING btree ("customer_id","day");