ALTER TABLE "payment_orders" ADD COLUMN "entitlements" jsonb;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "plan_amount" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "credit_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "replaces_subscription_id" uuid;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "entitlements" jsonb DEFAULT '{"endpoints":["latest","convert","history","ohlc","premium","webhooks","exports"],"historyDays":366,"markets":["black_market_cash","bank","black_market_transfer"],"burstPerSecond":50}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "entitlements" jsonb;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "amount" numeric(20, 6);--> statement-breakpoint
ALTER TABLE "payment_orders" ADD CONSTRAINT "payment_orders_replaces_subscription_id_subscriptions_id_fk" FOREIGN KEY ("replaces_subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE set null ON UPDATE no action;