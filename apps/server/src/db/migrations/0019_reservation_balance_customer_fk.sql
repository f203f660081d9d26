ALTER TABLE "stock_balances" ADD CONSTRAINT "stock_balances_id_customer_key" UNIQUE("id","customer_id");--> statement-breakpoint
ALTER TABLE "stock_reservations" DROP CONSTRAINT "stock_reservations_customer_id_customers_id_fk";
--> statement-breakpoint
ALTER TABLE "stock_reservations" DROP CONSTRAINT "stock_reservations_balance_id_stock_balances_id_fk";
--> statement-breakpoint
DROP INDEX "stock_reservations_balance_idx";--> statement-breakpoint
ALTER TABLE "stock_reservations" ADD CONSTRAINT "stock_reservations_balance_customer_fk" FOREIGN KEY ("balance_id","customer_id") REFERENCES "public"."stock_balances"("id","customer_id") ON DELETE no action ON UPDATE no action;
