CREATE TYPE "public"."webhook_endpoint_state" AS ENUM('active', 'parked');--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "sending_delivery_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "sending_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "state" "webhook_endpoint_state" DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "parked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "parked_reason" text;