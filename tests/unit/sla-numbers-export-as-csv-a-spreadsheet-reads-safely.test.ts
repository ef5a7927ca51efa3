import { describe, expect, it } from "vitest";
import type { SlaGroup, SlaHistory } from "@/lib/sla-history";
import { csvCell, SLA_CSV_COLUMNS, slaNumbersCsv } from "@/lib/sla-export";

function group(key: string | null, label: string | null, numbers: Partial<SlaGroup> = {}): SlaGroup {
  return { key, label, total: 4, answered: 3, withinSla: 3, breaches: 1, p50: 90_000, p90: 125_500, p95: 3_600_000, ...numbers };
}

const readAt = new Date("2026-12-05T12:00:00.000Z");

function history(byPerson: SlaGroup[]): SlaHistory {
  return {
    report: {
      overall: { total: 8, answered: 6, withinSla: 6, breaches: 2, p50: 90_000, p90: 125_500, p95: 3_600_000 },
      byWorkflow: [group("ReviewClaim", null)],
      byAgent: [group("Auditor", "Auditor"), group(null, null, { answered: 0, withinSla: 0, breaches: 4, p50: null, p90: null, p95: null })],
      byTeam: [group("team-id", "Finance")],
      byPerson,
    },
    longest: [],
    waits: [],
    unanswered: { byReason: [], latest: [] },
    readAt,
  } as SlaHistory;
}

function parse(csv: string): string[][] {
  return csv
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(","));
}

describe("the SLA numbers as CSV", () => {
  it("have a header row, the whole period, then every workflow, agent, team and person, with times in seconds", () => {
    const people = Array.from({ length: 40 }, (_, index) => group(`person-${index}`, `Person ${index}`));
    const rows = parse(slaNumbersCsv(history(people), "7d", { workflowLabel: (name) => (name === "ReviewClaim" ? "Expense review" : name) }));
    expect(rows[0]).toEqual([...SLA_CSV_COLUMNS]);
    expect(rows[1]).toEqual(["overall", "All waits", "", "Last 7 days", "2026-11-28T12:00:00.000Z", "2026-12-05T12:00:00.000Z", "8", "6", "6", "2", "75", "90", "125.5", "3600"]);
    expect(rows[2]!.slice(0, 3)).toEqual(["workflow", "Expense review", "ReviewClaim"]);
    expect(rows[4]!.slice(0, 3)).toEqual(["agent", "Asked without an agent (a questionnaire or the API)", ""]);
    expect(rows[4]!.slice(11)).toEqual(["", "", ""]);
    expect(rows[5]!.slice(0, 3)).toEqual(["team", "Finance", "team-id"]);
    expect(rows.filter((row) => row[0] === "person")).toHaveLength(40);
  });

  it("leave the start empty for all time", () => {
    const rows = parse(slaNumbersCsv(history([]), "all", { workflowLabel: (name) => name }));
    expect(rows[1]!.slice(3, 6)).toEqual(["All time", "", "2026-12-05T12:00:00.000Z"]);
  });

  it("quote a name with a comma or a quote, and keep a name that starts like a formula as text", () => {
    expect(csvCell('Okafor, Lee "the reviewer"')).toBe('"Okafor, Lee ""the reviewer"""');
    expect(csvCell("=HYPERLINK(\"http://evil\")")).toBe('"\'=HYPERLINK(""http://evil"")"');
    expect(csvCell("+1 555")).toBe("'+1 555");
    expect(csvCell("@sum")).toBe("'@sum");
    expect(csvCell("-2")).toBe("'-2");
    expect(csvCell(-2)).toBe("-2");
    expect(csvCell(null)).toBe("");
  });
});
