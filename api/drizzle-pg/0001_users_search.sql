-- Users search (issue 29 item 4), PostgreSQL's counterpart of SQLite's users_fts (migrations 0007 and 0026):
-- a tsvector over the app-written, accent-stripped users.search_text, split as FTS5's unicode61 splits it
-- (every run of letters and digits is a word, numbered 1, 2, 3… so that punctuated words are phrases), and
-- a GIN index. The column is generated, so it is current within the statement that writes search_text:
-- no queue and no trigger, where SQLite needs both (FTS5 flushes at every savepoint). db/pg/search.ts
-- builds the queries; db/pg/search.test.ts compares its answers with FTS5's.
CREATE FUNCTION users_search_vector(search_text text) RETURNS tsvector
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
  SELECT coalesce(string_agg('''' || w || ''':' || n, ' '), '')::tsvector
  FROM regexp_split_to_table(search_text, '[^[:alnum:]]+') WITH ORDINALITY AS t(w, n)
  WHERE w <> ''
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (users_search_vector("search_text")) STORED;
--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ("search_vector");
