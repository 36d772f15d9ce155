// Request and response schemas of the users API (filled in by step 2).
export {};
