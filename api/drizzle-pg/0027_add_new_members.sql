-- An import batch's new memberships in one call (issue 29: a 10k import within 1.5× of SQLite): the check that its users
-- have no membership or assignment yet, the 'new_members' pause around the insert, the insert and, outside an import's
-- deferred sync, the figures — four round trips a batch from organizations/bulk-members.ts before, one now. The check is
-- planned per call (EXECUTE): as a prepared statement its generic plan scanned every membership against the array once
-- the table had grown (1.4–1.9 ms a batch at a 10k import's end, pg_stat_statements). The insert reads no table.
CREATE FUNCTION figures.add_new_members(orgs integer[], members integer[], ids integer[], joined bigint, sync boolean) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  known boolean;
BEGIN
  EXECUTE 'SELECT EXISTS (SELECT 1 FROM organization_members WHERE user_id = ANY ($1))
    OR EXISTS (SELECT 1 FROM payment_assignments WHERE user_id = ANY ($1))' INTO known USING ids;
  IF known THEN
    RETURN false;
  END IF;
  INSERT INTO trigger_pauses (name) VALUES ('new_members');
  INSERT INTO organization_members (organization_id, user_id, role, is_active, joined_at)
  SELECT o, u, 'member', true, joined FROM unnest(orgs, members) AS p(o, u);
  IF sync THEN
    PERFORM figures.sync_new_members(ids);
  END IF;
  DELETE FROM trigger_pauses WHERE name = 'new_members';
  RETURN true;
END $$;
