// Request and response schemas of the audit API (filled in by step 2).
export {};
