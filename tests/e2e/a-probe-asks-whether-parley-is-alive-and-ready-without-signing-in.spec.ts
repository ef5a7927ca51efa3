import { expect, test } from "./fixtures";

test("a load balancer's probe asks whether Parley is alive and ready without signing in, and hears nothing else", async ({ request }) => {
  const health = await request.get("/api/health");
  expect(health.status()).toBe(200);
  expect(health.headers()["cache-control"]).toBe("no-store");
  expect(await health.json()).toEqual({ status: "ok" });
  expect((await request.head("/api/health")).status()).toBe(200);

  const ready = await request.get("/api/ready");
  expect(ready.status()).toBe(200);
  expect(ready.headers()["cache-control"]).toBe("no-store");
  expect(await ready.json()).toEqual({ status: "ready", checks: { database: "reachable", migrations: "applied", worker: "running" } });
});
