import { describe, expect, it } from "vitest";
import { metricsToken } from "@/lib/config";
import { presentsMetricsToken } from "@/lib/metrics";

const TOKEN = "scrape-me-with-this-long-token";

describe("the metrics token", () => {
  it("is absent (metrics off) when PARLEY_METRICS_TOKEN is unset or blank", () => {
    expect(metricsToken({})).toBeNull();
    expect(metricsToken({ PARLEY_METRICS_TOKEN: "  " })).toBeNull();
  });

  it("is refused at start when shorter than 16 characters, naming the variable", () => {
    expect(() => metricsToken({ PARLEY_METRICS_TOKEN: "short" })).toThrow(/PARLEY_METRICS_TOKEN is too short \(5 characters\): it must be at least 16/);
    expect(metricsToken({ PARLEY_METRICS_TOKEN: ` ${TOKEN} ` })).toBe(TOKEN);
  });

  it("admits a scrape only with that token as a bearer token", () => {
    expect(presentsMetricsToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(presentsMetricsToken(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(presentsMetricsToken(null, TOKEN)).toBe(false);
    expect(presentsMetricsToken(TOKEN, TOKEN)).toBe(false);
    expect(presentsMetricsToken(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(presentsMetricsToken(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(presentsMetricsToken("Bearer ", TOKEN)).toBe(false);
  });
});
