/**
 * Benchmark 4b — answers over the HTTP API, and their runs resumed (`npm run bench -- answers-over-api`):
 * benchmark 4 with every answer sent through `POST /api/v1/questions/{id}/answer` with the person's
 * own token instead of the question page's action (see answers-over-http.bench.ts).
 */
process.env.BENCH_HTTP_ROAD = "api";
await import("./answers-over-http.bench");

export {};
