CREATE TYPE "public"."official_source" AS ENUM('cbn', 'cbk', 'sarb', 'bog');--> statement-breakpoint
CREATE TABLE "official_rates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" "official_source" NOT NULL,
	"rate_date" date NOT NULL,
	"base" "base" NOT NULL,
	"asset" "asset" NOT NULL,
	"mid" numeric(20, 6) NOT NULL,
	"buy" numeric(20, 6),
	"sell" numeric(20, 6),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "official_rates_source_day_pair_key" ON "official_rates" USING btree ("source","rate_date","base","asset");--> statement-breakpoint
CREATE INDEX "official_rates_pair_day_idx" ON "official_rates" USING btree ("base","asset","rate_date" DESC NULLS LAST);