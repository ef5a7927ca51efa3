import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { type ServerProcess, startServer } from "./support/server";
import { adminPostgresUrl } from "./support/prerequisites";
import { until } from "./support/until";

const PORT = 3161;
const PROMETHEUS_PORT = 9391;
/** Debian's Prometheus (`apt-get install prometheus`): the scraper a team runs, not one written here. */
const PROMETHEUS = "/usr/bin/prometheus";

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

/** What Prometheus answers an instant query with: each series it holds now and its value. */
async function query(expression: string): Promise<Sample[]> {
  // Nothing yet while Prometheus is starting (its port not open).
  const response = await fetch(`http://127.0.0.1:${PROMETHEUS_PORT}/api/v1/query?query=${encodeURIComponent(expression)}`).catch(() => undefined);
  const body = (await response?.json()) as { status: string; data: { result: Sample[] } } | undefined;
  return body?.status === "success" ? body.data.result : [];
}

describe("Prometheus scraping Parley", () => {
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  let prometheus: ChildProcess | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    prometheus?.kill("SIGKILL");
    await server?.kill9();
    await database?.drop().catch(() => {});
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("reads the open questions and the API's requests with the metrics token, and is refused without it", async () => {
    if (!existsSync(PROMETHEUS)) throw new Error(`Prometheus is not installed at ${PROMETHEUS}: apt-get install prometheus`);
    database = await createFaultDatabase(adminPostgresUrl(), "metrics");
    const token = randomBytes(24).toString("base64url");
    server = await startServer({ port: PORT, databaseUrl: database.url, authSecret: randomBytes(33).toString("base64"), env: { PARLEY_METRICS_TOKEN: token } });
    const { secret } = await createApiKey(database.database.db, { kind: "agent", name: "Metrics bot", by: null });
    const asked = await fetch(`${server.baseUrl}/api/v1/asks`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ to: "sam@parley.test", title: "Is the scrape working?" }),
    });
    expect(asked.status).toBe(201);

    folder = mkdtempSync(path.join(tmpdir(), "parley-prometheus-"));
    const target = `127.0.0.1:${PORT}`;
    writeFileSync(
      path.join(folder, "prometheus.yml"),
      [
        "global: { scrape_interval: 1s, scrape_timeout: 1s }",
        "scrape_configs:",
        `  - { job_name: parley, metrics_path: /api/metrics, authorization: { credentials: "${token}" }, static_configs: [{ targets: ["${target}"] }] }`,
        `  - { job_name: wrong-token, metrics_path: /api/metrics, authorization: { credentials: "not-the-token-at-all" }, static_configs: [{ targets: ["${target}"] }] }`,
        "",
      ].join("\n"),
    );
    prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${path.join(folder, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(folder, "data")}`, `--web.listen-address=127.0.0.1:${PROMETHEUS_PORT}`],
      { stdio: "ignore" },
    );

    const open = await until("Prometheus holds the open API question", async () => (await query('parley_open_questions{job="parley",workflow="ApiAsk"}'))[0], {
      timeoutMs: 30_000,
      intervalMs: 500,
    });
    expect(Number(open.value[1])).toBe(1);
    const [asks] = await query('parley_http_requests_total{job="parley",route="/api/v1/asks",method="POST",status="201"}');
    expect(Number(asks?.value[1])).toBe(1);
    expect((await query('parley_database_reachable{job="parley"}'))[0]?.value[1]).toBe("1");
    expect((await query('up{job="parley"}'))[0]?.value[1]).toBe("1");
    const refused = await until("Prometheus has tried the wrong token", async () => (await query('up{job="wrong-token"}'))[0], { timeoutMs: 10_000, intervalMs: 500 });
    expect(refused.value[1]).toBe("0");
    expect((await query('parley_open_questions{job="wrong-token"}')).length).toBe(0);
  });
});
