import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NumbersTable } from "@/app/(app)/admin/sla/numbers-table";
import type { SlaGroup } from "@/db/queries/sla";

function person(index: number, breaches: number): SlaGroup {
  return { key: `person-${index}`, label: `Person ${index}`, total: 10, answered: 10 - breaches, withinSla: 10 - breaches, breaches, p50: 60_000, p90: 120_000, p95: 180_000 };
}

const links = createElement("a", { href: "/admin/sla?people=3#by-person" }, "Next 25 →");

describe("the SLA numbers by person", () => {
  const people = Array.from({ length: 60 }, (_, index) => person(index, 60 - index));

  it("show one page of rows, say which of how many they are, and carry the links to the others", () => {
    const markup = renderToStaticMarkup(createElement(NumbersTable, { caption: "By person", nameHeader: "Person", groups: people, page: { offset: 25, size: 25, links } }));
    expect(markup.match(/<th scope="row">/g)).toHaveLength(25);
    expect(markup).not.toContain(">Person 24<");
    expect(markup).toContain(">Person 25<");
    expect(markup).toContain(">Person 49<");
    expect(markup).not.toContain(">Person 50<");
    expect(markup).toContain("26–50 of 60, most breaches first.");
    expect(markup).toContain('<a href="/admin/sla?people=3#by-person">Next 25 →</a>');
  });

  it("say the last page holds only the rows that are left", () => {
    const markup = renderToStaticMarkup(createElement(NumbersTable, { caption: "By person", nameHeader: "Person", groups: people, page: { offset: 50, size: 25, links } }));
    expect(markup.match(/<th scope="row">/g)).toHaveLength(10);
    expect(markup).toContain("51–60 of 60, most breaches first.");
  });

  it("show every row and no page line when there is no page, or no more rows than one", () => {
    for (const page of [undefined, { offset: 0, size: 60, links }]) {
      const markup = renderToStaticMarkup(createElement(NumbersTable, { caption: "By person", nameHeader: "Person", groups: people, page }));
      expect(markup.match(/<th scope="row">/g)).toHaveLength(60);
      expect(markup).not.toContain("most breaches first");
    }
  });
});
