CREATE TABLE "sla_snapshots" (
	"name" text PRIMARY KEY NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL
);
