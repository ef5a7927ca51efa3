import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NumbersTable } from "@/app/(app)/admin/sla/numbers-table";
import type { SlaGroup } from "@/db/queries/sla";

function person(index: number, breaches: number): SlaGroup {
  return { key: `person-${index}`, label: `Person ${index}`, total: 10, answered: 10 - breaches, withinSla: 10 - breaches, breaches, p50: 60_000, p90: 120_000, p95: 180_000 };
}

describe("the SLA numbers by person", () => {
  const people = Array.from({ length: 30 }, (_, index) => person(index, 30 - index));

  it("show only the first rows it is given room for, and say how many more there are with the way to see them", () => {
    const markup = renderToStaticMarkup(
      createElement(NumbersTable, { caption: "By person", nameHeader: "Person", groups: people, limit: 25, more: createElement("a", { href: "/admin/sla?people=all" }, "Show all 30 people") }),
    );
    expect(markup.match(/<th scope="row">/g)).toHaveLength(25);
    expect(markup).toContain(">Person 24<");
    expect(markup).not.toContain(">Person 25<");
    expect(markup).toContain("…and 5 more with fewer breaches.");
    expect(markup).toContain('<a href="/admin/sla?people=all">Show all 30 people</a>');
  });

  it("show every row when there is no limit, or no more rows than it", () => {
    for (const limit of [undefined, 30]) {
      const markup = renderToStaticMarkup(createElement(NumbersTable, { caption: "By person", nameHeader: "Person", groups: people, limit, more: "more" }));
      expect(markup.match(/<th scope="row">/g)).toHaveLength(30);
      expect(markup).not.toContain("more with fewer breaches");
    }
  });
});
