-- FTS5's incremental 'merge' merges the segments of any level holding this many (its default is 4): with 2, the
-- worker's merges (users/index-merge.ts) keep the users index in a few segments, which every query term is looked
-- up in one by one. A setting of the index, kept in users_fts_config.
INSERT INTO `users_fts` (`users_fts`, `rank`) VALUES ('usermerge', 2);
