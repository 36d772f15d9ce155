// Request and response schemas of the organizations API (filled in by step 2).
export {};
