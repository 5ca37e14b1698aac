CREATE TYPE "public"."webhook_endpoint_state" AS ENUM('active', 'parked');--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"role" "account_role" NOT NULL,
	"email" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	CONSTRAINT "sign_in_failures_role_email_pk" PRIMARY KEY("role","email")
);
--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "sending_delivery_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "sending_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "state" "webhook_endpoint_state" DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "parked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "parked_reason" text;--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_failure_idx" ON "sign_in_failures" USING btree ("last_failure_at");