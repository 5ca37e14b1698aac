CREATE TABLE "sign_in_failures" (
	"role" "account_role" NOT NULL,
	"email" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	CONSTRAINT "sign_in_failures_role_email_pk" PRIMARY KEY("role","email")
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_failure_idx" ON "sign_in_failures" USING btree ("last_failure_at");