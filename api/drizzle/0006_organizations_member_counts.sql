CREATE TABLE `organization_member_counts` (
	`organization_id` integer PRIMARY KEY NOT NULL,
	`direct` integer DEFAULT 0 NOT NULL,
	`subtree` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`organization_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE cascade
);
