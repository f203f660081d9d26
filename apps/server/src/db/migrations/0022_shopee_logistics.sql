ALTER TABLE "shopee_orders" ADD COLUMN "logistics_channel_id" bigint;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD COLUMN "logistics_channel_name" text;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD COLUMN "platform_logistics" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD COLUMN "arranging_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD COLUMN "arranged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shopee_orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "shopee_shops" ADD COLUMN "ship_mode" text;--> statement-breakpoint
ALTER TABLE "shopee_shops" ADD CONSTRAINT "shopee_shops_ship_mode_check" CHECK ("shopee_shops"."ship_mode" is null or "shopee_shops"."ship_mode" in ('pickup', 'dropoff'));