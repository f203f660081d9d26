-- hand-written: records that already pay (or hold) a period a second time — the bug this index ends — become the
-- seller's credit (kind 'credit'), so the index can be built; the first record of each period keeps it (a
-- succeeded one before a pending one, then the earliest).
UPDATE "billing_payments" SET "kind" = 'credit', "updated_at" = now() WHERE "id" IN (
  SELECT "id" FROM (
    SELECT "id", row_number() OVER (
      PARTITION BY "contract_id", "period_start"
      ORDER BY ("status" = 'succeeded') DESC, "paid_at" NULLS LAST, "created_at", "id"
    ) AS "n"
    FROM "billing_payments"
    WHERE "status" IN ('pending', 'succeeded') AND "kind" <> 'credit'
  ) AS "d" WHERE "d"."n" > 1
);--> statement-breakpoint
CREATE UNIQUE INDEX "billing_payments_period_key" ON "billing_payments" USING btree ("contract_id","period_start") WHERE "billing_payments"."status" in ('pending', 'succeeded') and "billing_payments"."kind" <> 'credit';
