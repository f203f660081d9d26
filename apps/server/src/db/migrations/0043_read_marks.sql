CREATE TABLE "read_marks" (
	"scope" text PRIMARY KEY NOT NULL,
	"lsn" "pg_lsn" NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- hand-written: the marks cost no WAL and never reach the replica (db/replica.ts); a crash of the primary empties them.
ALTER TABLE "read_marks" SET UNLOGGED;
