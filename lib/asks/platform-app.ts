import { findApiAsksByIds } from "@/db/queries/api-asks";
import type { ContextFact, ParleyApp, TaskSubject } from "@/lib/registry/define-app";
import { ApiAsk } from "./api-ask-workflow";

/** The name the platform's own app is registered under; no app of parley.config.ts may take it. */
export const PLATFORM_APP_NAME = "parley";

/**
 * The platform's own app, in every registry: the workflow behind asks made over the HTTP API and MCP.
 * Its tasks are described by what the caller sent — the title, who asked (the key's name) — so the
 * inbox, the run page and the SLA page show them like any other question.
 */
export const platformApp: ParleyApp = {
  name: PLATFORM_APP_NAME,
  workflows: [
    {
      workflow: ApiAsk,
      label: "Asked over the API",
      description: "A question an agent or a script put to a person through Parley's HTTP API or MCP.",
      async describe(db, taskIds) {
        const asks = await findApiAsksByIds(db, taskIds);
        return new Map(asks.map((ask): [string, TaskSubject] => [ask.id, { title: ask.title, summary: `Asked by ${ask.apiKeyName}`, askedBy: ask.apiKeyName, startedBy: null }]));
      },
      async context(db, taskId) {
        const [ask] = await findApiAsksByIds(db, [taskId]);
        if (!ask) return undefined;
        const facts: ContextFact[] = [{ label: "Asked by", value: ask.apiKeyName }];
        if (ask.body) facts.push({ label: "Details", value: ask.body });
        for (const [label, value] of Object.entries(ask.context ?? {})) facts.push({ label, value: typeof value === "boolean" ? (value ? "yes" : "no") : String(value) });
        return { title: "What the asker gave", facts };
      },
    },
  ],
};
