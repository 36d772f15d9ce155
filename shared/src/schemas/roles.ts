// Request and response schemas of the roles API (filled in by step 2).
export {};
