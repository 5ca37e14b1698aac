ALTER TYPE "public"."order_status" ADD VALUE 'held';--> statement-breakpoint
CREATE TABLE "sandbox_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"reference" text NOT NULL,
	"email" text NOT NULL,
	"amount" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_payments" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "sandbox_payments" CASCADE;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "provider_transaction_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_provider_transaction_uq" ON "payment_orders" USING btree ("provider","provider_transaction_id");