// Request and response schemas of the departments API (filled in by step 2).
export {};
