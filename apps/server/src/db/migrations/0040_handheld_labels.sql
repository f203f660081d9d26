ALTER TABLE "users" ADD COLUMN "label_format" text DEFAULT 'sheet' NOT NULL;--> statement-breakpoint
ALTER TABLE "warehouses" ADD COLUMN "label_printer_host" text;--> statement-breakpoint
ALTER TABLE "warehouses" ADD COLUMN "label_printer_port" integer;