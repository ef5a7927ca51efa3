import type { Db } from "../../db/client";
import { listApiAsks } from "../../db/queries/api-asks";
import { findLiveApiKeyAndTouch } from "../../db/queries/api-keys";
import * as groupsModule from "../../lib/groups";
import { loadInbox, type InboxView } from "../../lib/inbox";
import * as peopleModule from "../../lib/people";
import * as notificationsModule from "../../lib/person-notifications";
import * as questionViewModule from "../../lib/question-view";
import { getRegistry } from "../../lib/registry/configured";
import * as runHistoryModule from "../../lib/run-history";
import { loadRunPage, loadRuns, type RunState } from "../../lib/runs";
import { createRuntime } from "../../lib/runtime";
import { readSlaHistory } from "../../lib/sla-history";
import type { SlaPeriod } from "../../lib/sla-numbers";
import { readOutstandingWork } from "../../lib/sla-outstanding";

/**
 * A function of the application's, looked up by name: the pages are being rewritten as this
 * benchmark measures them, and a page whose loader was renamed is reported "not captured" instead of
 * stopping the benchmark (a missing named import would fail it before it starts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function appFunction(module: object, ...names: string[]): (...args: any[]) => Promise<any> {
  for (const name of names) {
    const value = (module as Record<string, unknown>)[name];
    if (typeof value === "function") return value as (...args: unknown[]) => Promise<unknown>;
  }
  throw new Error(`the application has no ${names.join(" or ")} any more (the page changed): update bench/support/inbox-pages.ts`);
}

/** Which target a page is held to (issue 34): the inbox, the SLA page, any other page or list. */
export type TargetClass = "inbox" | "sla" | "page";

/** Server time at p95, one at a time, in milliseconds; under 4-way load the targets are {@link LOAD_FACTOR} times these. */
export const TARGETS: Record<TargetClass, number> = { inbox: 50, sla: 150, page: 100 };
export const LOAD_FACTOR = 2.5;
/** The SLA page's first load after a restart. */
export const FIRST_LOAD_TARGET_MS = 1000;
/** Every page's HTML, and the server's resident memory throughout. */
export const HTML_LIMIT_BYTES = 200 * 1024;
export const RSS_LIMIT_BYTES = 250 * 1024 * 1024;

/** Marks the statements the SLA page runs at most once a minute, not for every request. */
export const REFRESH_LABEL = "at most once a minute";

/** What a page reads, for capturing its statements: the page and its parameters. */
export type StatementPage =
  | { kind: "inbox"; userId: string; view: InboxView; search?: { text?: string; asker?: string; due?: string; sort?: string } }
  | { kind: "runs"; workflow?: string; state?: RunState; after?: string }
  | { kind: "run"; taskId: string }
  | { kind: "question"; questionId: string; userId: string }
  | { kind: "sla"; filters: { workflow?: string; agent?: string; assigneeId?: string; band?: "breached" | "at-risk" }; period: SlaPeriod; refresh: boolean }
  | { kind: "people" }
  | { kind: "groups" }
  | { kind: "notifications"; userId: string }
  | { kind: "api-asks"; apiKeyId: string; secretHash: string; status?: "open" | "answered" | "nothing" }
  | { kind: "api-questions"; userId: string; secretHash: string };

type Capturing = { capture<T>(label: string, run: (db: Db) => Promise<T>): Promise<T> };

/**
 * Runs what a page runs against the database — the application's own functions with the page's
 * parameters (the page files under app/ and app/api/v1) — under `capture` labels, so the benchmark
 * can EXPLAIN each statement. Writes a page makes as it is read (the inbox's "seen" mark, an API
 * key's last use) are left out: EXPLAIN ANALYZE would make them. The SLA page's history is read at
 * most once a minute (lib/sla-history.ts); it is labelled so.
 */
export async function pageStatements(capturing: Capturing, page: StatementPage, now: Date): Promise<void> {
  const registry = getRegistry();
  switch (page.kind) {
    case "inbox":
      await capturing.capture("loadInbox", (db) => loadInbox(db, page.userId, page.view, now, { registry, search: page.search ?? {} }));
      return;
    case "runs":
      await capturing.capture("loadRuns", (db) => loadRuns(db, registry, { workflow: page.workflow, state: page.state, after: page.after }));
      return;
    case "run": {
      const found = await capturing.capture("loadRunPage", (db) => loadRunPage(db, registry, page.taskId));
      if (!found) throw new Error(`no run over ${page.taskId}`);
      await capturing.capture("loadRunHistory", (db) => appFunction(runHistoryModule, "loadRunHistory")(db, page.taskId, {}));
      await capturing.capture("loadRunEnding", (db) => appFunction(runHistoryModule, "loadRunEnding")(db, page.taskId, found.run.status));
      await capturing.capture("loadHandoffGraph", (db) => appFunction(runHistoryModule, "loadHandoffGraph")(db, page.taskId));
      return;
    }
    case "question": {
      const question = await capturing.capture("questionFor", (db) => createRuntime({ db, workflows: registry.workflows }).questionFor(page.questionId, page.userId));
      if (!question) throw new Error(`question ${page.questionId} is not for ${page.userId}`);
      await capturing.capture("loadQuestionRun", (db) => appFunction(questionViewModule, "loadQuestionRun")(db, registry, question));
      return;
    }
    case "sla": {
      const { band, ...filters } = page.filters;
      await capturing.capture("readOutstandingWork", (db) =>
        // A page of 25 and one more (app/(app)/admin/sla/page.tsx); the people to reassign to are read only while a row is being reassigned.
        readOutstandingWork(db, { ...filters, breachedOnly: band === "breached", atRiskOnly: band === "at-risk" }, now, { limit: 26 }),
      );
      if (page.refresh) await capturing.capture(`readSlaHistory ${page.period} (${REFRESH_LABEL})`, (db) => readSlaHistory(db, page.period, now));
      return;
    }
    case "people":
      // Its first page, no search (the defaults, whichever way the page passes them).
      await capturing.capture("listPeopleForAdmin", (db) => appFunction(peopleModule, "listPeopleForAdmin")(db));
      await capturing.capture("listGroups", (db) => appFunction(groupsModule, "listGroups")(db));
      return;
    case "groups":
      await capturing.capture("listGroupsAndMembers", (db) => appFunction(groupsModule, "listGroupsAndMembers", "listGroupsWithMembers")(db));
      // The people offered to add: a search (nothing typed yet), or, as the page did before issue 34, everyone.
      if ("searchPeopleToAdd" in groupsModule) await capturing.capture("searchPeopleToAdd", (db) => appFunction(groupsModule, "searchPeopleToAdd")(db, { query: "" }));
      else await capturing.capture("listPeople", (db) => appFunction(peopleModule, "listPeople")(db));
      return;
    case "notifications":
      await capturing.capture("loadNotifications", (db) => appFunction(notificationsModule, "loadNotifications")(db, page.userId));
      return;
    case "api-asks":
      await capturing.capture("listApiAsks", (db) => listApiAsks(db, page.apiKeyId, { limit: 100, ...(page.status ? { status: page.status } : {}) }));
      return;
    case "api-questions":
      await capturing.capture("questionsFor", (db) => createRuntime({ db, workflows: registry.workflows }).questionsFor(page.userId, { limit: 101 }));
      return;
  }
}

/** The key lookup every API request makes (its last-use mark, at most once a minute, is a write and is left out). */
export async function apiKeyStatements(capturing: Capturing, secretHash: string): Promise<void> {
  // Far in the past: the "touch" finds the key used since, so nothing is written.
  await capturing.capture("findLiveApiKeyAndTouch", (db) => findLiveApiKeyAndTouch(db, secretHash, new Date(0)));
}
