ALTER TYPE "public"."subscription_status" ADD VALUE 'upgraded';--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "warning" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "on_sale_at" timestamp with time zone DEFAULT now();