ALTER TABLE "login_attempts" ADD COLUMN "locks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "failed_logins" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "failed_login_at" timestamp with time zone;--> statement-breakpoint
-- hand-written: the account-wide login counters (`login:<e-mail>`) are replaced by per account + address ones.
DELETE FROM "login_attempts" WHERE "key" LIKE 'login:%';
