import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readOperationalCounts } from "@/db/queries/metrics";
import { createMetrics } from "@/lib/metrics";
import { readSlaHistory } from "@/lib/sla-history";
import { createTestDatabase, type TestDatabase } from "@/tests/support/databases";

interface Panel {
  title?: string;
  targets?: { expr: string }[];
}

/** The metric names a PromQL expression reads (a histogram's `_bucket` series by the histogram's name). */
function metricsIn(expression: string): string[] {
  return [...expression.matchAll(/\bparley_[a-z0-9_]+/g)].map(([name]) => name.replace(/_bucket$/, ""));
}

describe("the sample Grafana dashboard (docs/grafana-dashboard.json)", () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("charts only metrics a Parley server serves, each panel at least one", async () => {
    database = await createTestDatabase("pglite");
    const db = database.db;
    const now = new Date();
    const metrics = createMetrics({ counts: () => readOperationalCounts(db, now), lastDay: () => readSlaHistory(db, "24h", now) });
    const { body } = await metrics.render();
    const served = new Set([...body.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name!));

    const dashboard = JSON.parse(readFileSync(path.join(import.meta.dirname, "..", "..", "..", "docs", "grafana-dashboard.json"), "utf8")) as { panels: (Panel & { type: string })[] };
    const charts = dashboard.panels.filter((panel) => panel.type !== "row");
    expect(charts.length).toBeGreaterThan(10);
    const unknown = charts.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricsIn(target.expr).filter((name) => !served.has(name)).map((name) => `${panel.title}: ${name}`)));
    expect(unknown).toEqual([]);
    expect(charts.filter((panel) => (panel.targets ?? []).every((target) => metricsIn(target.expr).length === 0)).map((panel) => panel.title)).toEqual([]);
  });
});
