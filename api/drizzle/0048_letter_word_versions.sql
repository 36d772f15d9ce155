-- 'users:words' (lib/freshness.ts): what a search whose every word begins with a letter can change with. PostgreSQL
-- leaves it alone when only words beginning with a digit changed at the end of search_text (a phone number:
-- drizzle-pg 0015); SQLite bumps it with 'users:search', on every change of the search words.
INSERT INTO `cache_versions` (`name`) VALUES ('users:words');
--> statement-breakpoint
DROP TRIGGER `users_columns_version_i`;
--> statement-breakpoint
DROP TRIGGER `users_columns_version_d`;
--> statement-breakpoint
DROP TRIGGER `users_search_version_u`;
--> statement-breakpoint
CREATE TRIGGER `users_columns_version_i` AFTER INSERT ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN ('users:access', 'users:counted', 'users:search', 'users:words'); END;
--> statement-breakpoint
CREATE TRIGGER `users_columns_version_d` AFTER DELETE ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN ('users:access', 'users:counted', 'users:search', 'users:words'); END;
--> statement-breakpoint
CREATE TRIGGER `users_search_version_u` AFTER UPDATE OF `search_text` ON `users` WHEN OLD.`search_text` IS NOT NEW.`search_text` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN ('users:search', 'users:words'); END;
