CREATE TABLE `import_mappings` (
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`mapping` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `kind`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
