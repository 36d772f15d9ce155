-- Finer versions for the users table (issue 28): any write to a user still bumps 'users' (0005), but a
-- cached read that depends only on some of its columns names one of these instead, so a phone change
-- no longer drops every caller's roles, every list total and every page checkpoint, in each process.
-- 'users:access': the columns a caller's actor is built from (lib/access/actor.ts); 'users:counted':
-- what decides which users a column filter counts (the set of users, type, membership, active);
-- 'users:search': the search words (users/list.ts counts with words). WHEN compares values, so a
-- statement that sets a column to what it was bumps nothing.
INSERT INTO `cache_versions` (`name`) VALUES ('users:access'), ('users:counted'), ('users:search');
--> statement-breakpoint
CREATE TRIGGER `users_columns_version_i` AFTER INSERT ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN ('users:access', 'users:counted', 'users:search'); END;
--> statement-breakpoint
CREATE TRIGGER `users_columns_version_d` AFTER DELETE ON `users` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` IN ('users:access', 'users:counted', 'users:search'); END;
--> statement-breakpoint
CREATE TRIGGER `users_access_version_u` AFTER UPDATE OF `email`, `is_active`, `must_change_password` ON `users` WHEN OLD.`email` IS NOT NEW.`email` OR OLD.`is_active` IS NOT NEW.`is_active` OR OLD.`must_change_password` IS NOT NEW.`must_change_password` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users:access'; END;
--> statement-breakpoint
CREATE TRIGGER `users_counted_version_u` AFTER UPDATE OF `user_type`, `membership_status`, `is_active` ON `users` WHEN OLD.`user_type` IS NOT NEW.`user_type` OR OLD.`membership_status` IS NOT NEW.`membership_status` OR OLD.`is_active` IS NOT NEW.`is_active` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users:counted'; END;
--> statement-breakpoint
CREATE TRIGGER `users_search_version_u` AFTER UPDATE OF `search_text` ON `users` WHEN OLD.`search_text` IS NOT NEW.`search_text` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users:search'; END;
