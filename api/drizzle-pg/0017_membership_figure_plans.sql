-- A membership write's figure functions planned per call, as figures.sync_new_members already is (0012): their statements
-- read a few users' rows, and the generic plans PostgreSQL settles on after five calls (made for an average array of ids,
-- on statistics from when the database was small) scanned whole tables: a single membership insert took 9–58 ms in psql
-- on the 100k bench database once they set in, 11–13 ms planned per call (docs/benchmark.md, session 19).
ALTER FUNCTION figures.sync_member_figures(integer[]) SET plan_cache_mode = force_custom_plan;
--> statement-breakpoint
ALTER FUNCTION figures.sync_reports(integer[]) SET plan_cache_mode = force_custom_plan;
--> statement-breakpoint
ALTER FUNCTION figures.lock_and_sync_reports(integer[]) SET plan_cache_mode = force_custom_plan;
