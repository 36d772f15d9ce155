CREATE TABLE `trigger_pauses` (
	`name` text PRIMARY KEY NOT NULL
);
