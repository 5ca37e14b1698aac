ALTER TABLE "accounts" ADD COLUMN "mailbox" text;--> statement-breakpoint
CREATE INDEX "accounts_mailbox_idx" ON "accounts" USING btree ("mailbox");