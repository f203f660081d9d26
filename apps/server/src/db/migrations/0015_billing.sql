CREATE TABLE "billing_contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"plan" text NOT NULL,
	"price" numeric(14, 4) NOT NULL,
	"tax_rate" numeric(6, 4) DEFAULT '0.05' NOT NULL,
	"period" text NOT NULL,
	"start_date" date NOT NULL,
	"payment_terms" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"auto_renew" text,
	"card_key_enc" text,
	"card_token_enc" text,
	"card_last_four" text,
	"newebpay_period_order" text,
	"overdue_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_contracts_period_check" CHECK ("billing_contracts"."period" in ('quarterly', 'annual')),
	CONSTRAINT "billing_contracts_terms_check" CHECK ("billing_contracts"."payment_terms" in ('11', '21', '31')),
	CONSTRAINT "billing_contracts_price_check" CHECK ("billing_contracts"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "billing_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"contract_id" uuid NOT NULL,
	"order_number" text NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"amount" numeric(14, 4) NOT NULL,
	"tax" numeric(14, 4) DEFAULT '0' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_transaction_id" text,
	"failure" text,
	"card_last_four" text,
	"attempt" integer DEFAULT 1 NOT NULL,
	"remember" boolean DEFAULT false NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_payments_status_check" CHECK ("billing_payments"."status" in ('pending', 'succeeded', 'failed')),
	CONSTRAINT "billing_payments_provider_check" CHECK ("billing_payments"."provider" in ('tappay', 'newebpay'))
);
--> statement-breakpoint
ALTER TABLE "billing_contracts" ADD CONSTRAINT "billing_contracts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_payments" ADD CONSTRAINT "billing_payments_contract_id_billing_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."billing_contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_contracts_customer_key" ON "billing_contracts" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payments_order_number_key" ON "billing_payments" USING btree ("order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payments_provider_tx_key" ON "billing_payments" USING btree ("provider","provider_transaction_id") WHERE "billing_payments"."provider_transaction_id" is not null;--> statement-breakpoint
CREATE INDEX "billing_payments_customer_idx" ON "billing_payments" USING btree ("customer_id","created_at");