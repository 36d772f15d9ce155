// Request and response schemas of the classes API (filled in by step 2).
export {};
