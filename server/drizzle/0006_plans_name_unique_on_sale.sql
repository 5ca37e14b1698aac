DROP INDEX "plans_name_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "plans_name_uq" ON "plans" USING btree (lower("name")) WHERE "plans"."retired_at" is null;