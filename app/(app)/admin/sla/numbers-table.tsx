import type { ReactNode } from "react";
import type { SlaGroup } from "@/lib/sla-history";
import { formatPercentile, formatShare, NO_AGENT_LABEL } from "@/lib/sla-numbers";

/**
 * One breakdown of the SLA numbers (by workflow, agent or person), in the order given — most
 * breaches first. With `limit`, only that many rows are shown and a last row says how many more there
 * are, with `more` (a link to the whole table): a thousand people would otherwise make the page a
 * megabyte long.
 */
export function NumbersTable({
  caption,
  groups,
  nameHeader,
  limit,
  more,
}: {
  caption: string;
  groups: SlaGroup[];
  nameHeader: string;
  limit?: number;
  more?: ReactNode;
}) {
  const shown = limit === undefined ? groups : groups.slice(0, limit);
  const hidden = groups.length - shown.length;
  return (
    <table className="table sla-table stacks">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{nameHeader}</th>
          <th scope="col">Within SLA</th>
          <th scope="col">Breaches</th>
          <th scope="col">p50</th>
          <th scope="col">p90</th>
          <th scope="col">p95</th>
          <th scope="col">Finished</th>
        </tr>
      </thead>
      <tbody>
        {groups.length === 0 ? (
          <tr>
            <td colSpan={7} className="muted">
              Nothing finished in this period.
            </td>
          </tr>
        ) : (
          shown.map((group) => (
            <tr key={group.key ?? "none"}>
              <th scope="row">{group.label ?? (nameHeader === "Agent" ? NO_AGENT_LABEL : "—")}</th>
              <td data-label="Within SLA">{formatShare(group.withinSla, group.total)}</td>
              <td data-label="Breaches" className={group.breaches > 0 ? "breaches" : undefined}>
                {group.breaches}
              </td>
              <td data-label="p50">{formatPercentile(group.p50)}</td>
              <td data-label="p90">{formatPercentile(group.p90)}</td>
              <td data-label="p95">{formatPercentile(group.p95)}</td>
              <td data-label="Finished">{group.total}</td>
            </tr>
          ))
        )}
        {hidden > 0 ? (
          <tr>
            <td colSpan={7} className="muted" data-testid="sla-table-more">
              …and {hidden} more with fewer breaches. {more}
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
