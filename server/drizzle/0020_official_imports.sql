CREATE TABLE "official_source_status" (
	"source" "official_source" PRIMARY KEY NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_imported" integer,
	"last_failure_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "publication_deadline_mails" (
	"market" "market" NOT NULL,
	"day" date NOT NULL,
	"deadline" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "publication_deadline_mails_market_day_pk" PRIMARY KEY("market","day")
);
