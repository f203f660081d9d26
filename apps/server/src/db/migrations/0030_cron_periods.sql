CREATE TABLE "cron_periods" (
	"kind" text NOT NULL,
	"period" timestamp with time zone NOT NULL,
	"job_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cron_periods_kind_period_pk" PRIMARY KEY("kind","period")
);
