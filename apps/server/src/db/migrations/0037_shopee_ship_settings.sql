ALTER TABLE "shopee_orders" ADD COLUMN "arrangement" jsonb;--> statement-breakpoint
ALTER TABLE "shopee_shops" ADD COLUMN "ship_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;