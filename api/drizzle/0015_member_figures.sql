CREATE TABLE `member_figures` (
	`organization_id` integer NOT NULL,
	`term_start` integer NOT NULL,
	`members` integer DEFAULT 0 NOT NULL,
	`doan` integer DEFAULT 0 NOT NULL,
	`hoi` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`organization_id`, `term_start`)
);
