DROP INDEX "accounts_role_created_idx";--> statement-breakpoint
DROP INDEX "apps_account_idx";--> statement-breakpoint
DROP INDEX "apps_created_idx";--> statement-breakpoint
DROP INDEX "mailing_list_type_created_idx";--> statement-breakpoint
DROP INDEX "plans_created_idx";--> statement-breakpoint
DROP INDEX "rates_pair_created_idx";--> statement-breakpoint
DROP INDEX "rates_created_idx";--> statement-breakpoint
DROP INDEX "request_logs_app_created_idx";--> statement-breakpoint
DROP INDEX "subscriptions_created_idx";--> statement-breakpoint
DROP INDEX "transactions_app_created_idx";--> statement-breakpoint
DROP INDEX "transactions_created_idx";--> statement-breakpoint
CREATE INDEX "accounts_role_created_idx" ON "accounts" USING btree ("role","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "apps_account_idx" ON "apps" USING btree ("account_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "apps_created_idx" ON "apps" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "mailing_list_type_created_idx" ON "mailing_list_subscribers" USING btree ("mail_type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "plans_created_idx" ON "plans" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "rates_pair_created_idx" ON "rates" USING btree ("market","base","asset","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "rates_created_idx" ON "rates" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "request_logs_app_created_idx" ON "request_logs" USING btree ("app_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "subscriptions_created_idx" ON "subscriptions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transactions_app_created_idx" ON "transactions" USING btree ("app_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transactions_created_idx" ON "transactions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);