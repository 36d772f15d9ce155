-- 'organization_members:0' … ':15' (lib/freshness.ts): the memberships under one second-level unit (a faculty; the
-- second id of a unit's path) move the version of that unit's id modulo 16, besides 'organization_members' itself. A
-- list narrowed to a subtree at or below a second-level unit (users/list.ts countedTables) follows only its bucket, so a
-- membership written in another faculty keeps its count and checkpoints in every process. A membership of a top-level
-- unit, or of a unit no longer there, moves every bucket. Striped as every version (0002); SQLite reads the buckets as
-- 'organization_members' (lib/freshness.ts).
INSERT INTO freshness.stripes (name, stripe)
SELECT 'organization_members:' || b, s FROM generate_series(0, 15) b, generate_series(0, 31) s;
--> statement-breakpoint
CREATE FUNCTION freshness.bump_member_buckets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  buckets integer[];
  b integer;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT nullif(split_part(o.path, '/', 3), '')::integer % 16) INTO buckets
    FROM (SELECT DISTINCT organization_id FROM new_rows) r LEFT JOIN organizations o ON o.id = r.organization_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT nullif(split_part(o.path, '/', 3), '')::integer % 16) INTO buckets
    FROM (SELECT DISTINCT organization_id FROM old_rows) r LEFT JOIN organizations o ON o.id = r.organization_id;
  ELSE
    SELECT array_agg(DISTINCT nullif(split_part(o.path, '/', 3), '')::integer % 16) INTO buckets
    FROM (SELECT organization_id FROM new_rows UNION SELECT organization_id FROM old_rows) r LEFT JOIN organizations o ON o.id = r.organization_id;
  END IF;
  -- No row written: no version moves (as freshness.bump).
  IF buckets IS NULL THEN
    RETURN NULL;
  END IF;
  -- A top-level unit's membership (no second id) or one whose unit is gone: every bucket.
  IF array_position(buckets, NULL) IS NOT NULL THEN
    buckets := ARRAY(SELECT generate_series(0, 15));
  END IF;
  FOREACH b IN ARRAY buckets LOOP
    PERFORM freshness.bump_name('organization_members:' || b);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organization_members_buckets_i AFTER INSERT ON organization_members REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_member_buckets();
--> statement-breakpoint
CREATE TRIGGER organization_members_buckets_u AFTER UPDATE ON organization_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_member_buckets();
--> statement-breakpoint
CREATE TRIGGER organization_members_buckets_d AFTER DELETE ON organization_members REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_member_buckets();
