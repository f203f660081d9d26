ALTER TABLE "storage_locations" ADD COLUMN "pick_sequence_manual" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- hand-written: a sequence already set on a location counts as set by hand, except the one "generate locations" used
-- to give (layer × 1000 + position, the position being the code's last number), which is derived.
UPDATE "storage_locations" SET "pick_sequence_manual" = true
WHERE "pick_sequence" <> 0
  AND "pick_sequence" IS DISTINCT FROM coalesce("layer", 0) * 1000 + coalesce(substring("code" from '-(\d+)$')::int, -1);
