ALTER TABLE "payment_orders" ADD COLUMN "fee_minor" bigint;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "receipt_mail_due" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "receipt_mailed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "transactions_receipt_due_idx" ON "transactions" USING btree ("created_at") WHERE "transactions"."receipt_mail_due";