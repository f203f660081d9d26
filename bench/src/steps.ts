/** Benches that run on the PostgreSQL data set; each registers itself in STEPS (allocation, import, scan-to-pack). */
export {};
