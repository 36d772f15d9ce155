// Request and response schemas of the payments API (filled in by step 4).
export {};
