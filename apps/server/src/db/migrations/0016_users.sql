ALTER TABLE "users" ADD COLUMN "seller_role" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "menu_access" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_factor_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_seller_role_check" CHECK ("users"."seller_role" in ('owner', 'office', 'warehouse', 'readonly', 'custom'));--> statement-breakpoint
-- hand-written:
-- Every existing seller account becomes the owner of its company (the column default already fills rows that exist;
-- stated here as the backfill of record).
UPDATE "users" SET "seller_role" = 'owner' WHERE "role" = 'CUSTOMER';
