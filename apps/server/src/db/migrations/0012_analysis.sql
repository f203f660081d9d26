CREATE INDEX "outbound_orders_customer_closed_idx" ON "outbound_orders" USING btree ("customer_id","closed_at") WHERE "outbound_orders"."closed_at" is not null;--> statement-breakpoint
CREATE INDEX "stock_movements_out_product_idx" ON "stock_movements" USING btree ("customer_id","product_id","created_at" DESC NULLS LAST) WHERE "stock_movements"."reason" = 'outbound';--> statement-breakpoint
CREATE INDEX "stock_movements_inflow_idx" ON "stock_movements" USING btree ("customer_id","product_id","warehouse_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "stock_movements"."quantity" > 0 and "stock_movements"."reason" in ('inbound', 'return', 'adjust', 'stocktake');--> statement-breakpoint
-- hand-written:
-- /purchase-advice and /product-turnover scan a seller's shipments of a window by time; the covering columns let
-- the scan answer from the index alone.
CREATE INDEX IF NOT EXISTS "stock_movements_out_time_idx" ON "stock_movements" USING btree ("customer_id","created_at") INCLUDE ("product_id","warehouse_id","quantity") WHERE "stock_movements"."reason" in ('outbound', 'outbound_cancel');
