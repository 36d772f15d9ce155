-- A users import's one figure sync at the end of its transaction (figures.sync_new_members, and all it calls) with 64 MB
-- of work_mem: over a 10k import's 30,000 memberships its unit_member_figures statement sorted 170,000 rows through 7 MB of
-- temporary files, and its hash aggregates spilled in five batches (auto_explain on the bench). psql on the bench import
-- database, its 10,000 users' seen rows cleared in a rolled-back transaction: 894 / 865 ms the call before, 777 / 777 ms
-- with it. Only the import calls it; a membership write's own figures (figures.sync_members) keep the server's work_mem.
ALTER FUNCTION figures.sync_new_members(integer[]) SET work_mem = '64MB';
