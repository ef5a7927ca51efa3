import type { SlaGroup, SlaHistory, SlaNumbers } from "@/lib/sla-history";
import { NO_AGENT_LABEL, periodStart, SLA_PERIOD_LABELS, type SlaPeriod } from "@/lib/sla-numbers";

/** The columns of the SLA numbers' CSV, in order. */
export const SLA_CSV_COLUMNS = [
  "breakdown",
  "name",
  "id",
  "period",
  "from",
  "until",
  "finished",
  "answered",
  "within_sla",
  "breaches",
  "within_sla_percent",
  "p50_seconds",
  "p90_seconds",
  "p95_seconds",
] as const;

/**
 * A cell as a spreadsheet reads it safely: quoted when it holds a comma, a quote or a line break, and
 * a text a spreadsheet would take for a formula (a person's name is whatever an admin typed) starts
 * with an apostrophe, which spreadsheets show as text.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function seconds(milliseconds: number | null): number | null {
  return milliseconds === null ? null : Math.round(milliseconds / 100) / 10;
}

function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 1000) / 10;
}

/**
 * The SLA page's numbers for a period as CSV: the whole period, then every workflow, agent, team and
 * person (all of them — the page shows people a page at a time), most breaches first as on the page.
 * Times to answer in seconds; an empty cell where nothing was answered.
 */
export function slaNumbersCsv(history: SlaHistory, period: SlaPeriod, options: { workflowLabel: (name: string) => string }): string {
  const from = periodStart(period, history.readAt);
  const row = (breakdown: string, name: string, id: string | null, numbers: SlaNumbers) =>
    [
      breakdown,
      name,
      id,
      SLA_PERIOD_LABELS[period],
      from ? from.toISOString() : null,
      history.readAt.toISOString(),
      numbers.total,
      numbers.answered,
      numbers.withinSla,
      numbers.breaches,
      percent(numbers.withinSla, numbers.total),
      seconds(numbers.p50),
      seconds(numbers.p90),
      seconds(numbers.p95),
    ]
      .map(csvCell)
      .join(",");
  const { report } = history;
  const groups = (breakdown: string, list: SlaGroup[], name: (group: SlaGroup) => string) => list.map((group) => row(breakdown, name(group), group.key, group));
  const lines = [
    SLA_CSV_COLUMNS.join(","),
    row("overall", "All waits", null, report.overall),
    ...groups("workflow", report.byWorkflow, (group) => (group.key ? options.workflowLabel(group.key) : "—")),
    ...groups("agent", report.byAgent, (group) => group.label ?? NO_AGENT_LABEL),
    ...groups("team", report.byTeam, (group) => group.label ?? group.key ?? "—"),
    ...groups("person", report.byPerson, (group) => group.label ?? "—"),
  ];
  // CRLF line ends, as RFC 4180 has them and spreadsheets expect.
  return `${lines.join("\r\n")}\r\n`;
}
