import { describe, expect, it } from "vitest";
import { hasAnyRole, homePathFor, navigationFor } from "@/lib/auth/roles";

describe("roles", () => {
  it("show each role its own section and nobody else's", () => {
    expect(navigationFor(["assignee"]).map((link) => link.label)).toEqual(["Inbox"]);
    expect(navigationFor(["operator"]).map((link) => link.label)).toEqual(["Runs"]);
    // Admins see everything: the runs too.
    expect(navigationFor(["admin"]).map((link) => link.label)).toEqual(["Runs", "Admin"]);
    expect(navigationFor(["assignee", "operator", "admin"]).map((link) => link.label)).toEqual(["Inbox", "Runs", "Admin"]);
  });

  it("allow a person holding any one of the roles asked for", () => {
    expect(hasAnyRole(["assignee", "operator"], ["operator"])).toBe(true);
    expect(hasAnyRole(["assignee"], ["admin"])).toBe(false);
    expect(hasAnyRole([], ["admin", "operator"])).toBe(false);
    expect(hasAnyRole(["assignee"], [])).toBe(true);
  });

  it("start each person on their most common job", () => {
    expect(homePathFor(["admin"])).toBe("/admin");
    expect(homePathFor(["operator"])).toBe("/runs");
    expect(homePathFor(["operator", "assignee"])).toBe("/inbox");
  });
});
