CREATE TABLE "shared_totals" (
	"key" text PRIMARY KEY NOT NULL,
	"stamp" text NOT NULL,
	"total" integer NOT NULL,
	"page" text,
	"stored_at" bigint NOT NULL
);
