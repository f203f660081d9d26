ALTER TABLE "logistics_providers" ADD COLUMN "sender_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "logistics_providers" ADD COLUMN "sender_phone" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "logistics_providers" ADD COLUMN "sender_postcode" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "logistics_providers" ADD COLUMN "sender_address" text DEFAULT '' NOT NULL;