CREATE TABLE "request_daily_counts" (
	"app_id" uuid NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "request_daily_counts_app_id_day_pk" PRIMARY KEY("app_id","day")
);
--> statement-breakpoint
ALTER TABLE "request_daily_counts" ADD CONSTRAINT "request_daily_counts_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;