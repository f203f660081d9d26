CREATE TABLE "shopee_pushes" (
	"digest" text PRIMARY KEY NOT NULL,
	"shop_id" bigint,
	"code" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "shopee_pushes_received_idx" ON "shopee_pushes" USING btree ("received_at");