-- Written by hand: drizzle-kit does not model partitioning. request_logs becomes a table partitioned by UTC day on
-- created_at, so that retention drops a day whole (REQUEST_LOG_RETENTION_DAYS, the request-log-retention job)
-- instead of deleting rows one by one. The id sequence, the foreign key and the page index carry over; the
-- primary key gains created_at, as a partitioned table's key must hold its partition key.
ALTER TABLE "request_logs" RENAME TO "request_logs_unpartitioned";--> statement-breakpoint
ALTER TABLE "request_logs_unpartitioned" RENAME CONSTRAINT "request_logs_pkey" TO "request_logs_unpartitioned_pkey";--> statement-breakpoint
ALTER TABLE "request_logs_unpartitioned" DROP CONSTRAINT "request_logs_app_id_apps_id_fk";--> statement-breakpoint
ALTER INDEX "request_logs_app_created_idx" RENAME TO "request_logs_unpartitioned_app_created_idx";--> statement-breakpoint
CREATE TABLE "request_logs" (
	"id" bigint DEFAULT nextval('request_logs_id_seq'::regclass) NOT NULL,
	"app_id" uuid NOT NULL,
	"host" text NOT NULL,
	"agent" text NOT NULL,
	"ip_address" text NOT NULL,
	"original_url" text NOT NULL,
	"status" integer NOT NULL,
	"latency_ms" real NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_logs_created_at_id_pk" PRIMARY KEY("created_at","id")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER SEQUENCE "request_logs_id_seq" OWNED BY "request_logs"."id";--> statement-breakpoint
ALTER TABLE "request_logs" ADD CONSTRAINT "request_logs_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "request_logs_app_created_idx" ON "request_logs" USING btree ("app_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- One partition per UTC day that holds rows, and today with the next seven (the job keeps that lead).
DO $$
DECLARE
	today date := (now() AT TIME ZONE 'UTC')::date;
	d date;
BEGIN
	FOR d IN
		SELECT DISTINCT (created_at AT TIME ZONE 'UTC')::date FROM "request_logs_unpartitioned"
		UNION
		SELECT today + n FROM generate_series(0, 7) AS n
	LOOP
		EXECUTE format(
			'CREATE TABLE %I PARTITION OF "request_logs" FOR VALUES FROM (%L) TO (%L)',
			'request_logs_' || to_char(d, 'YYYYMMDD'),
			d::text || ' 00:00:00+00',
			(d + 1)::text || ' 00:00:00+00'
		);
	END LOOP;
END
$$;--> statement-breakpoint
INSERT INTO "request_logs" ("id", "app_id", "host", "agent", "ip_address", "original_url", "status", "latency_ms", "count", "created_at")
	SELECT "id", "app_id", "host", "agent", "ip_address", "original_url", "status", "latency_ms", "count", "created_at" FROM "request_logs_unpartitioned";--> statement-breakpoint
DROP TABLE "request_logs_unpartitioned";
