CREATE TABLE `import_session_rows` (
	`session_id` text PRIMARY KEY NOT NULL,
	`rows` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `import_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Sessions under way at the upgrade keep their rows (added by hand to the generated migration).
INSERT INTO `import_session_rows` (`session_id`, `rows`) SELECT `id`, `rows` FROM `import_sessions` WHERE `rows` <> '[]';
--> statement-breakpoint
ALTER TABLE `import_sessions` DROP COLUMN `rows`;