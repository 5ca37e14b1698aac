CREATE TABLE "publication_alerts_outbox" (
	"publication_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "publication_alerts_outbox" ADD CONSTRAINT "publication_alerts_outbox_publication_id_rate_publications_id_fk" FOREIGN KEY ("publication_id") REFERENCES "public"."rate_publications"("id") ON DELETE cascade ON UPDATE no action;