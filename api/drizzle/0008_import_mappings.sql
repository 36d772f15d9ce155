-- Each user's last column mapping per kind of import (issue 15 part 5). Hand-written: the
-- snapshot chain of api/drizzle/meta is broken (0004 and 0005 both name 0001 as parent), so
-- drizzle-kit cannot generate this table until the chain is repaired at merge.
CREATE TABLE `import_mappings` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`mapping` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
