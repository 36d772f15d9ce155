-- A phone change keeps 'users:words' on SQLite too (as drizzle-pg 0015 does on PostgreSQL): the phone is the last
-- part of search_text (users/search.ts userSearchText), so when both texts are equal once their trailing digits and
-- spaces are cut, and what was cut began at a space on both sides, only words made of digits changed, which no
-- search whose pieces all begin with a letter can match. Anything else (a name, an e-mail, a phone followed by
-- letters, a text without a space before its digits) moves both. Under the 100k mix with 1 % writes, a third of
-- them phone changes, each had made every process count the searches again.
DROP TRIGGER `users_search_version_u`;
--> statement-breakpoint
CREATE TRIGGER `users_search_version_u` AFTER UPDATE OF `search_text` ON `users` WHEN OLD.`search_text` IS NOT NEW.`search_text` BEGIN UPDATE `cache_versions` SET `version` = `version` + 1 WHERE `name` = 'users:search' OR (`name` = 'users:words' AND NOT (
  rtrim(coalesce(OLD.`search_text`, ''), '0123456789 ') = rtrim(coalesce(NEW.`search_text`, ''), '0123456789 ')
  AND substr(coalesce(OLD.`search_text`, ''), length(rtrim(coalesce(OLD.`search_text`, ''), '0123456789 ')) + 1, 1) IN ('', ' ')
  AND substr(coalesce(NEW.`search_text`, ''), length(rtrim(coalesce(NEW.`search_text`, ''), '0123456789 ')) + 1, 1) IN ('', ' ')
)); END;
