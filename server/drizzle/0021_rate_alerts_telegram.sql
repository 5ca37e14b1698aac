CREATE TYPE "public"."rate_alert_condition" AS ENUM('above', 'below', 'move');--> statement-breakpoint
CREATE TABLE "rate_alert_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_alert_firings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"figure" numeric(20, 6) NOT NULL,
	"previous_figure" numeric(20, 6),
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text,
	"chat_id" bigint,
	"market" "market" NOT NULL,
	"base" "base" NOT NULL,
	"asset" "asset" NOT NULL,
	"side" "webhook_side" NOT NULL,
	"condition" "rate_alert_condition" NOT NULL,
	"level" numeric(20, 6) NOT NULL,
	"confirmed_at" timestamp with time zone,
	"paused" boolean DEFAULT false NOT NULL,
	"armed" boolean DEFAULT true NOT NULL,
	"last_figure" numeric(20, 6),
	"last_published_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_chats" (
	"chat_id" bigint PRIMARY KEY NOT NULL,
	"daily" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mailing_list_subscribers" ADD COLUMN "bases" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "mailing_list_subscribers" ADD COLUMN "markets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_alert_firings" ADD CONSTRAINT "rate_alert_firings_alert_id_rate_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."rate_alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rate_alert_confirmations_email_idx" ON "rate_alert_confirmations" USING btree (lower("email"),"created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rate_alert_firings_alert_publication_uq" ON "rate_alert_firings" USING btree ("alert_id","published_at");--> statement-breakpoint
CREATE INDEX "rate_alerts_live_pair_idx" ON "rate_alerts" USING btree ("market","base","asset") WHERE "rate_alerts"."confirmed_at" is not null and not "rate_alerts"."paused";--> statement-breakpoint
CREATE INDEX "rate_alerts_email_idx" ON "rate_alerts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "rate_alerts_chat_idx" ON "rate_alerts" USING btree ("chat_id");