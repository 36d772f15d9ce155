-- Every word users_index holds, in byte order, so a search word's prefix is expanded to the words it begins
-- (nguyen → nguyen, nguyenx) and GIN intersects their posting lists with the scope's: a prefix query
-- ('nguyen':*) is a partial match that collects every user of every matching word first, whatever the scope
-- (22.7 ms for a faculty's 1,109 Nguyễns at 1M users, 2.1 ms for the exact word; docs/benchmark.md). Words
-- are only added: one no user has any more matches nothing. db/pg/search.ts expandedTsQuery reads it.
CREATE TABLE search_words (word text COLLATE "C" PRIMARY KEY);
--> statement-breakpoint
CREATE FUNCTION search_words_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word) SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM new_rows ORDER BY 1 ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER search_words_i AFTER INSERT ON users_index REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_words_added();
--> statement-breakpoint
CREATE FUNCTION search_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_words (word) SELECT unnest(tsvector_to_array(NEW.search_vector)) ORDER BY 1 ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Only a change of words: a membership change rewrites orgs alone.
CREATE TRIGGER search_words_u AFTER UPDATE OF search_vector ON users_index FOR EACH ROW
WHEN (OLD.search_vector IS DISTINCT FROM NEW.search_vector) EXECUTE FUNCTION search_words_changed();
--> statement-breakpoint
INSERT INTO search_words (word) SELECT DISTINCT unnest(tsvector_to_array(search_vector)) FROM users_index ORDER BY 1;
--> statement-breakpoint
ANALYZE search_words;
