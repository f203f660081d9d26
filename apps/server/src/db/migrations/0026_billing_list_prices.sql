CREATE TABLE "billing_list_prices" (
	"period" text PRIMARY KEY NOT NULL,
	"plan" text NOT NULL,
	"price" numeric(14, 4) NOT NULL,
	"tax_rate" numeric(6, 4) DEFAULT '0.05' NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_list_prices_period_check" CHECK ("billing_list_prices"."period" in ('quarterly', 'annual')),
	CONSTRAINT "billing_list_prices_price_check" CHECK ("billing_list_prices"."price" >= 0)
);
