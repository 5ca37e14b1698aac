CREATE TABLE "request_log_batches" (
	"id" uuid PRIMARY KEY NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "request_daily_counts" ADD COLUMN "entries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
UPDATE "request_daily_counts" SET "entries" = "count";
