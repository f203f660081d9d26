DROP INDEX "usage_charges_statement";--> statement-breakpoint
DROP INDEX "usage_charges_customer_day";--> statement-breakpoint
ALTER TABLE "usage_charges" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_statements" ADD COLUMN "billed_through" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "usage_charges_customer_kind_day" ON "usage_charges" USING btree ("customer_id","kind","day","occurred_at","document_number","seq");--> statement-breakpoint
CREATE INDEX "usage_charges_customer_day" ON "usage_charges" USING btree ("customer_id","day","occurred_at","document_number","kind","seq");--> statement-breakpoint
-- hand-written: a statement issued before this migration bills what it marked: billed_through is the last charge
-- marked on it, and a charge of its month it did not mark (recorded after its issue) is given a later seq.
UPDATE "usage_statements" s SET "billed_through" = coalesce((SELECT max(c."seq") FROM "usage_charges" c WHERE c."statement_id" = s."id"), 0) WHERE s."status" <> 'void';--> statement-breakpoint
UPDATE "usage_charges" c SET "seq" = nextval(pg_get_serial_sequence('usage_charges', 'seq')) WHERE c."statement_id" IS NULL AND EXISTS (SELECT 1 FROM "usage_statements" s WHERE s."customer_id" = c."customer_id" AND s."status" <> 'void' AND c."day" >= (s."month" || '-01')::date AND c."day" < ((s."month" || '-01')::date + interval '1 month'));--> statement-breakpoint
ALTER TABLE "usage_charges" DROP CONSTRAINT "usage_charges_statement_id_usage_statements_id_fk";
--> statement-breakpoint
ALTER TABLE "usage_charges" DROP COLUMN "statement_id";