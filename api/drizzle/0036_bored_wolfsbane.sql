ALTER TABLE `users` ADD `date_of_birth` text;--> statement-breakpoint
ALTER TABLE `users` ADD `gender` text;--> statement-breakpoint
ALTER TABLE `users` ADD `ethnicity` text;--> statement-breakpoint
ALTER TABLE `users` ADD `religion` text;--> statement-breakpoint
ALTER TABLE `users` ADD `doan_joined_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `hoi_joined_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `party_joined_at` text;--> statement-breakpoint
ALTER TABLE `users` ADD `hometown` text;