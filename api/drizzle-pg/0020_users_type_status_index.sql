-- The users list's filter pages (users/list.ts: user type, then membership status, then active, as the admin narrows
-- them) walked users_type_idx (user_type, id) and read each row's status from the heap, or probed users once per member of
-- the scope: 4.0–5.6 ms a call for a faculty's staff of one status under the 1M read mix (pg_stat_statements). Newest first
-- within a type and a status, with the active flag beside it, the page is a walk of this index alone (merged with
-- member_scopes by id inside a scope): 1.1–1.2 ms a call (docs/benchmark.md, session 20). PostgreSQL only, as
-- users_index is: SQLite's own filter pages are not what missed the target.
CREATE INDEX IF NOT EXISTS users_type_status_idx ON users (user_type, membership_status, id) INCLUDE (is_active);
