import type { ReactNode } from "react";
import type { SlaGroup } from "@/lib/sla-history";
import { formatPercentile, formatShare, NO_AGENT_LABEL } from "@/lib/sla-numbers";

/** Which stretch of a long breakdown a table shows, and the links to the others. */
export interface NumbersPage {
  /** How many rows come before this stretch. */
  offset: number;
  size: number;
  /** Links to the stretches before and after. */
  links: ReactNode;
}

/**
 * One breakdown of the SLA numbers (by workflow, agent or person), in the order given — most
 * breaches first. With `page`, only that stretch of rows is shown and a last row says which rows of
 * how many they are, with the links to the others: a thousand people would otherwise make the page a
 * megabyte long.
 */
export function NumbersTable({
  id,
  caption,
  groups,
  nameHeader,
  page,
}: {
  id?: string;
  caption: string;
  groups: SlaGroup[];
  nameHeader: string;
  page?: NumbersPage;
}) {
  const shown = page ? groups.slice(page.offset, page.offset + page.size) : groups;
  const from = page ? Math.min(page.offset + 1, groups.length) : 1;
  return (
    <table id={id} className="table sla-table stacks">
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
        {page && groups.length > page.size ? (
          <tr>
            <td colSpan={7} className="muted sla-table-pages" data-testid="sla-table-more">
              {from}–{from + shown.length - 1} of {groups.length}, most breaches first. {page.links}
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
