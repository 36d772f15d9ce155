/** Accounts the end-to-end server seeds (see playwright.config.ts and data/seed/demo.json). */
export const ADMIN = { email: 'admin@doanhoi.local', password: 'admin123' };
export const FACULTY_ADMIN = { email: 'canbo.cntt@doanhoi.local', password: 'canbo123' };
export const MEMBER = { email: 'member@doanhoi.local', password: 'member123' };
