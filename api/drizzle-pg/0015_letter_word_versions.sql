-- 'users:words' (lib/freshness.ts): the version a users search follows when each of its words' pieces begins with a
-- letter (users/search.ts searchVersion), where 'users:search' moves with every change of search_text. A phone
-- number is the last part of search_text (users/search.ts userSearchText), so a phone change changes only words
-- that begin with a digit, at the end: no such search can match differently (each of its pieces would have to equal
-- or begin one of the changed words), and its count, checkpoints and prefix expansions are kept in every process.
-- Striped as every version (0002); SQLite bumps it with 'users:search' (drizzle/0048).
INSERT INTO freshness.stripes (name, stripe) SELECT 'users:words', s FROM generate_series(0, 31) s;
--> statement-breakpoint
-- Whether a search with no piece beginning with a digit can match `after` differently from `before`: the words
-- from the first position where they differ to the end, on either side, are split as users_search_vector splits
-- them (same positions), and any of them that begins with something else than a digit may.
CREATE FUNCTION freshness.letter_words_changed(before text, after text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  o text[] := regexp_split_to_array(coalesce(before, ''), '[^[:alnum:]]+');
  n text[] := regexp_split_to_array(coalesce(after, ''), '[^[:alnum:]]+');
  i integer := 1;
BEGIN
  WHILE i <= least(cardinality(o), cardinality(n)) AND o[i] = n[i] LOOP
    i := i + 1;
  END LOOP;
  RETURN EXISTS (SELECT 1 FROM unnest(o[i:] || n[i:]) w WHERE w <> '' AND w !~ '^[0-9]');
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION freshness.bump_user_columns() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  access_changed boolean;
  counted_changed boolean;
  search_changed boolean;
  words_changed boolean;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- One pass over the statement's rows; the API never rewrites a user id, so it pairs old with new.
    SELECT
      bool_or(o.email IS DISTINCT FROM n.email OR o.is_active IS DISTINCT FROM n.is_active
        OR o.must_change_password IS DISTINCT FROM n.must_change_password),
      bool_or(o.user_type IS DISTINCT FROM n.user_type OR o.membership_status IS DISTINCT FROM n.membership_status
        OR o.is_active IS DISTINCT FROM n.is_active),
      bool_or(o.search_text IS DISTINCT FROM n.search_text),
      bool_or(o.search_text IS DISTINCT FROM n.search_text AND freshness.letter_words_changed(o.search_text, n.search_text))
    INTO access_changed, counted_changed, search_changed, words_changed
    FROM old_rows o JOIN new_rows n ON n.id = o.id;
  ELSE
    IF TG_OP = 'INSERT' THEN
      PERFORM FROM new_rows LIMIT 1;
    ELSE
      PERFORM FROM old_rows LIMIT 1;
    END IF;
    access_changed := FOUND;
    counted_changed := FOUND;
    search_changed := FOUND;
    words_changed := FOUND;
  END IF;
  IF access_changed THEN PERFORM freshness.bump_name('users:access'); END IF;
  IF counted_changed THEN PERFORM freshness.bump_name('users:counted'); END IF;
  IF search_changed THEN PERFORM freshness.bump_name('users:search'); END IF;
  IF words_changed THEN PERFORM freshness.bump_name('users:words'); END IF;
  RETURN NULL;
END $$;
