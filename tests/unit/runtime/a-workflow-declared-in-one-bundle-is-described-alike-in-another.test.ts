import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";

type Plain = Parameters<typeof import("@/lib/runtime/workflow-description").describeWorkflow>[0];

/**
 * Next.js bundles lib/runtime once per route: the server's runtime and registry are made in one copy
 * (where it started), and a page reads them with another. Both copies must describe a workflow alike,
 * or a page would compare the server's runs with a definition the server never ran.
 */
describe("a workflow declared in one copy of the runtime's modules", () => {
  it("is described by another copy as its own copy describes it: a person's answer stays an answer, under one fingerprint", async () => {
    const server = await import("@/lib/runtime");
    const workflow = {
      name: "Bundled",
      tracks: tasks,
      initial: "Asking",
      events: { Answered: server.answerOf(z.object({ ok: z.boolean() })) },
      states: { Asking: { on: { Answered: () => undefined } } },
    } as unknown as Plain;
    const there = server.workflowDefinition(workflow);
    vi.resetModules();
    const page = await import("@/lib/runtime");
    expect(page.describeWorkflow).not.toBe(server.describeWorkflow);
    expect(page.describeWorkflow(workflow).events.Answered).toMatchObject({ kind: "answer" });
    expect(page.workflowDefinition(workflow).fingerprint).toBe(there.fingerprint);
  });
});
