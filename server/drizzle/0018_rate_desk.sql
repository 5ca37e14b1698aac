CREATE TYPE "public"."rate_revision_kind" AS ENUM('correction', 'withdrawal');--> statement-breakpoint
CREATE TYPE "public"."rate_source" AS ENUM('desk', 'csv', 'api', 'official:cbn', 'official:cbk', 'official:sarb', 'official:bog', 'seed');--> statement-breakpoint
CREATE TABLE "admin_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_id" uuid,
	"admin_email" text NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"target" text,
	"before" jsonb,
	"after" jsonb,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_publications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" "rate_source" NOT NULL,
	"published_by" uuid,
	"row_count" integer NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rate_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"kind" "rate_revision_kind" NOT NULL,
	"old_buy" numeric(20, 6) NOT NULL,
	"old_sell" numeric(20, 6) NOT NULL,
	"buy" numeric(20, 6) NOT NULL,
	"sell" numeric(20, 6) NOT NULL,
	"reason" text NOT NULL,
	"revised_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rates" ADD COLUMN "publication_id" uuid;--> statement-breakpoint
ALTER TABLE "rates" ADD COLUMN "source" "rate_source" DEFAULT 'seed' NOT NULL;--> statement-breakpoint
ALTER TABLE "rates" ADD COLUMN "published_by" uuid;--> statement-breakpoint
ALTER TABLE "admin_activity" ADD CONSTRAINT "admin_activity_admin_id_accounts_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_publications" ADD CONSTRAINT "rate_publications_published_by_accounts_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_revisions" ADD CONSTRAINT "rate_revisions_rate_id_rates_id_fk" FOREIGN KEY ("rate_id") REFERENCES "public"."rates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rate_revisions" ADD CONSTRAINT "rate_revisions_revised_by_accounts_id_fk" FOREIGN KEY ("revised_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_activity_created_idx" ON "admin_activity" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admin_activity_kind_idx" ON "admin_activity" USING btree ("kind","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "rate_revisions_rate_revision_key" ON "rate_revisions" USING btree ("rate_id","revision");--> statement-breakpoint
CREATE INDEX "rate_revisions_created_idx" ON "rate_revisions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_publication_id_rate_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."rate_publications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rates" ADD CONSTRAINT "rates_published_by_accounts_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE VIEW "public"."served_rates" AS (SELECT r.id, r.market, r.asset, r.base, coalesce(v.buy, r.buy) AS buy, coalesce(v.sell, r.sell) AS sell, r.created_at, coalesce(v.created_at, r.updated_at) AS updated_at, r.publication_id, r.source, r.published_by, coalesce(v.revision, 0) AS revision FROM rates r LEFT JOIN LATERAL (SELECT rv.buy, rv.sell, rv.created_at, rv.revision, rv.kind FROM rate_revisions rv WHERE rv.rate_id = r.id ORDER BY rv.revision DESC LIMIT 1) v ON true WHERE v.kind IS DISTINCT FROM 'withdrawal');--> statement-breakpoint
CREATE FUNCTION "append_only"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '% is append-only: its rows are never changed or deleted', TG_TABLE_NAME; END $$;--> statement-breakpoint
CREATE TRIGGER "admin_activity_append_only" BEFORE UPDATE OR DELETE ON "admin_activity" FOR EACH ROW EXECUTE FUNCTION "append_only"();--> statement-breakpoint
CREATE TRIGGER "rate_revisions_append_only" BEFORE UPDATE OR DELETE ON "rate_revisions" FOR EACH ROW EXECUTE FUNCTION "append_only"();
