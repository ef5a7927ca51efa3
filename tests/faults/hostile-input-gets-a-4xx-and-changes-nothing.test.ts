import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { DEMO_USERS } from "@/lib/demo-people";
import { httpStatusOf } from "@/lib/server/http-status";
import { changedTables, createFaultDatabase, type FaultDatabase, snapshotTables } from "./support/database";
import { type ActionArgument, type ActionResponse, appPaths, callAction, HttpClient, type HttpResponse, serverActionIds, startedTaskId } from "./support/http-client";
import { adminPostgresUrl } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

/*
 * How an answer is judged "a clear 4xx-class answer":
 * - an HTTP status of 400–499 (Next.js, or proxy.ts, refused the request before any action ran); or
 * - HTTP 200 carrying the action's own refusal, with an error code whose status is 4xx
 *   (`unauthorized`, `forbidden`, `not_found`, `invalid_input`, `conflict`): `{ ok: false, error: { code } }`
 *   from defineAction, `{ outcome: "unavailable", code }` from the answer form, `{ outcome: "refused", code }`
 *   from a start form its schema refused, `{ error, code }` from sign-in.
 * The HTTP API's routes (bearer keys, JSON) answer their refusals with a 4xx and the API's error shape.
 * Two public actions answer everything with their ordinary redirect, to this site: signing out
 * (it only ends the caller's own session) and starting single sign-on. next-auth's routes refuse in
 * their own protocol: a 4xx, or a redirect to the sign-in page naming the error. Pages send a visitor
 * to sign in. Never a 5xx; and after every group of requests, no row of any table has changed.
 */

const ZERO_UUID = "00000000-0000-4000-8000-000000000000";
const FOUR_XX_CODES: ReadonlySet<string> = new Set((Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => httpStatusOf(code) >= 400 && httpStatusOf(code) < 500));
const EVIL_ORIGIN = "http://evil.example";
/** Over Next.js's 1 MB limit for a server action's body. */
const OVERSIZED = "x".repeat(1_100_000);
const MALFORMED_IDS = [ZERO_UUID, "not-a-uuid", "' or '1'='1", "../../etc/passwd", "__proto__"];

/** `samSigningOut`: a session of Sam's of its own, which the sign-out cases end (his other session goes on). */
type Caller = "anonymous" | "forged" | "forgedJwe" | "sam" | "samSigningOut" | "priya" | "omar" | "ada";
type Expectation = "refused" | "redirect";

interface Fixture {
  questionId: string;
  taskId: string;
  slotId: string;
  samId: string;
  /** An agent key Ada made. */
  agentKeyId: string;
  /** A token Sam made for himself. */
  samTokenId: string;
  /** The secrets of the API's callers: Ada's agent key, another agent key, Sam's token and Priya's. */
  secrets: { agentKey: string; otherAgentKey: string; samToken: string; priyaToken: string };
  /** An ask Ada's key put to Sam over the API, and its question. */
  askId: string;
  askQuestionId: string;
}

/** Who may call an action, the fields a well-meant call sends, and which of them are ids. */
interface ActionRow {
  caller: Caller;
  /** A caller who may not: wrong role, or someone else's question. */
  intruder?: Caller;
  fields: Record<string, string>;
  ids?: string[];
  /** `redirect`: a public action that answers every call by sending the caller on. */
  expect?: Expectation;
  /** The action takes no arguments. */
  noArguments?: boolean;
}

function actionTable(fixture: Fixture): Record<string, ActionRow> {
  return {
    "app/(app)/actions.ts#setMyAwayAction": { caller: "sam", fields: { away: "false" } },
    // An email that is nobody's: past every check to the refusal, so nothing is reassigned.
    "app/(app)/admin/actions.ts#bulkWaitsAction": { caller: "ada", intruder: "omar", fields: { do: "reassign", slotId: ZERO_UUID, assigneeEmail: "nobody@parley.test" }, ids: ["slotId"] },
    "app/(app)/actions.ts#findInPaletteAction": { caller: "sam", fields: { words: "claim" } },
    "app/(app)/admin/actions.ts#findPeopleToReassignToAction": { caller: "ada", intruder: "omar", fields: { words: "priya" } },
    "app/(app)/actions.ts#setDensityAction": { caller: "sam", fields: { density: "comfortable" } },
    "app/(app)/actions.ts#signOutAction": { caller: "samSigningOut", fields: {}, expect: "redirect", noArguments: true },
    "app/(auth)/login/actions.ts#signInWithPassword": { caller: "anonymous", fields: { email: "sam@parley.test", password: "not-the-password" } },
    "app/(auth)/login/actions.ts#signInWithOidc": { caller: "anonymous", fields: { callbackUrl: "https://evil.example/" }, expect: "redirect" },
    "app/(app)/questions/[id]/actions.ts#submitAnswerAction": {
      caller: "sam",
      intruder: "priya",
      fields: { questionId: fixture.questionId, answer: "Dinner with the Acme procurement team to close the renewal." },
      ids: ["questionId"],
    },
    "app/(app)/runs/actions.ts#startRunAction": {
      caller: "omar",
      intruder: "sam",
      fields: { workflow: "ReviewClaim", startToken: randomUUID(), title: "Hostile", amount: "12.00", currency: "EUR", merchant: "Nowhere", incurredOn: "2026-11-01", description: "", assigneeId: fixture.samId },
      ids: ["assigneeId"],
    },
    "app/(app)/runs/actions.ts#runAgainAction": { caller: "omar", intruder: "sam", fields: { taskId: fixture.taskId, confirm: "yes" }, ids: ["taskId"] },
    "app/(app)/tasks/[id]/actions.ts#retryRunAction": { caller: "omar", intruder: "sam", fields: { taskId: fixture.taskId }, ids: ["taskId"] },
    // A run that is not there: even a call that got through would cancel nothing (the fixture's own run must stay waiting).
    "app/(app)/tasks/[id]/actions.ts#cancelRunAction": { caller: "omar", intruder: "sam", fields: { taskId: ZERO_UUID, confirm: "yes" }, ids: ["taskId"] },
    "app/(app)/admin/actions.ts#setPersonAwayAction": { caller: "ada", intruder: "omar", fields: { userId: fixture.samId, away: "true" }, ids: ["userId"] },
    "app/(app)/admin/actions.ts#reassignSlotAction": { caller: "ada", intruder: "omar", fields: { slotId: fixture.slotId, assigneeId: fixture.samId }, ids: ["slotId", "assigneeId"] },
    "app/(app)/admin/actions.ts#remindAction": { caller: "ada", intruder: "sam", fields: { questionId: fixture.questionId }, ids: ["questionId"] },
    "app/(app)/admin/api-keys/actions.ts#createAgentKeyAction": { caller: "ada", intruder: "omar", fields: { name: "Hostile bot" } },
    "app/(app)/admin/api-keys/actions.ts#revokeAgentKeyAction": { caller: "ada", intruder: "sam", fields: { keyId: fixture.agentKeyId }, ids: ["keyId"] },
    // Anyone signed in may make a token: only who is not signed in is an intruder (the cases without a session).
    "app/(app)/profile/actions.ts#createPersonalTokenAction": { caller: "sam", fields: { name: "Hostile laptop" } },
    "app/(app)/profile/actions.ts#revokePersonalTokenAction": { caller: "sam", intruder: "priya", fields: { keyId: fixture.samTokenId }, ids: ["keyId"] },
    // Naming nobody is what Sam has already: even a call that got through would change nothing.
    "app/(app)/profile/actions.ts#setMyDelegateAction": { caller: "sam", intruder: "omar", fields: { delegateId: "" }, ids: ["delegateId"] },
    // Sam's question has an assignee (him): there is nothing to take, so even his own call is refused.
    // A note one character over the limit: even Sam's own well-formed call is refused, and his question stays open.
    "app/(app)/questions/[id]/actions.ts#declineQuestionAction": { caller: "sam", intruder: "priya", fields: { questionId: fixture.questionId, note: "x".repeat(1_001) }, ids: ["questionId"] },
    // A while the page does not offer: past every check to the refusal of the choice, so nothing is snoozed.
    "app/(app)/questions/[id]/actions.ts#snoozeQuestionAction": { caller: "sam", intruder: "priya", fields: { questionId: fixture.questionId, for: "forever" }, ids: ["questionId"] },
    // Sam has nothing snoozed: there is no snooze to end.
    "app/(app)/questions/[id]/actions.ts#wakeQuestionAction": { caller: "sam", intruder: "priya", fields: { questionId: fixture.questionId }, ids: ["questionId"] },
    "app/(app)/questions/[id]/actions.ts#claimQuestionAction": { caller: "sam", intruder: "priya", fields: { questionId: fixture.questionId, intent: "take" }, ids: ["questionId"] },
    "app/(app)/notifications/actions.ts#openNotificationAction": { caller: "sam", fields: { notificationId: ZERO_UUID }, ids: ["notificationId"] },
    // Omar has no notifications: marking them all read changes nothing, whatever gets through.
    "app/(app)/notifications/actions.ts#markAllNotificationsReadAction": { caller: "omar", fields: { all: "yes" } },
    "app/(app)/admin/people/actions.ts#addPersonAction": { caller: "ada", intruder: "omar", fields: { name: "Hostile Person", email: "hostile@parley.test", roles: "assignee" } },
    "app/(app)/admin/people/actions.ts#inviteAgainAction": { caller: "ada", intruder: "sam", fields: { personId: fixture.samId }, ids: ["personId"] },
    "app/(app)/admin/people/actions.ts#changeRolesAction": { caller: "ada", intruder: "omar", fields: { personId: fixture.samId, roles: "operator" }, ids: ["personId"] },
    "app/(app)/admin/people/actions.ts#changeGroupsAction": { caller: "ada", intruder: "omar", fields: { personId: fixture.samId, groupIds: ZERO_UUID }, ids: ["personId"] },
    "app/(app)/admin/people/actions.ts#deactivatePersonAction": { caller: "ada", intruder: "sam", fields: { personId: fixture.samId }, ids: ["personId"] },
    "app/(app)/admin/people/actions.ts#reactivatePersonAction": { caller: "ada", intruder: "sam", fields: { personId: fixture.samId }, ids: ["personId"] },
    "app/(app)/admin/people/actions.ts#setPersonDelegateAction": { caller: "ada", intruder: "sam", fields: { personId: fixture.samId, delegateId: "" }, ids: ["personId", "delegateId"] },
    "app/(app)/admin/groups/actions.ts#createGroupAction": { caller: "ada", intruder: "omar", fields: { name: "hostile-team" } },
    "app/(app)/admin/groups/actions.ts#deleteGroupAction": { caller: "ada", intruder: "omar", fields: { groupId: ZERO_UUID }, ids: ["groupId"] },
    "app/(app)/admin/groups/actions.ts#renameGroupAction": { caller: "ada", intruder: "omar", fields: { groupId: ZERO_UUID, name: "hostile-rename" }, ids: ["groupId"] },
    "app/(app)/admin/groups/actions.ts#addGroupMemberAction": { caller: "ada", intruder: "omar", fields: { groupId: ZERO_UUID, userId: fixture.samId }, ids: ["groupId", "userId"] },
    "app/(app)/admin/groups/actions.ts#removeGroupMemberAction": { caller: "ada", intruder: "omar", fields: { groupId: ZERO_UUID, userId: fixture.samId }, ids: ["groupId", "userId"] },
    // Public: the token is the credential, and a made-up one is refused like a used one.
    "app/(auth)/a/[token]/actions.ts#followAnswerLinkAction": { caller: "anonymous", fields: { token: "A".repeat(43) } },
    "app/(auth)/invite/[token]/actions.ts#setPasswordWithInvite": { caller: "anonymous", fields: { token: "A".repeat(43), password: "a long new password", confirm: "a long new password" } },
  };
}

/** One hostile request to an action. */
interface ActionCase {
  label: string;
  caller: Caller;
  args?: readonly ActionArgument[];
  rawBody?: BodyInit;
  contentType?: string;
  origin?: string | null;
  headers?: Record<string, string>;
  expect: Expectation;
}

/** Every hostile variation of a call to one action. */
function actionCases(row: ActionRow): ActionCase[] {
  const expect = row.expect ?? "refused";
  const form = (fields: Record<string, string | string[]>): ActionArgument[] => (row.noArguments ? [] : [{ json: null }, { form: fields }]);
  const json = (value: unknown): ActionArgument[] => (row.noArguments ? [] : [{ json: null }, { json: value }]);
  const firstField = Object.keys(row.fields)[0] ?? "field";
  const cases: ActionCase[] = [
    // Who is calling.
    { label: "no session", caller: "anonymous", args: form(row.fields), expect },
    { label: "forged session cookie", caller: "forged", args: form(row.fields), expect },
    { label: "forged session token", caller: "forgedJwe", args: form(row.fields), expect },
    ...(row.intruder ? [{ label: `as ${row.intruder}`, caller: row.intruder, args: form(row.fields), expect: "refused" as const }] : []),
    // From where.
    { label: "cross-origin", caller: row.caller, args: form(row.fields), origin: EVIL_ORIGIN, expect: "refused" },
    { label: "origin null", caller: row.caller, args: form(row.fields), origin: "null", expect: "refused" },
    { label: "origin garbage", caller: row.caller, args: form(row.fields), origin: "not a url", expect: "refused" },
    // How big.
    { label: "oversized body", caller: row.caller, args: [{ json: null }, { form: { ...row.fields, padding: OVERSIZED } }], expect: "refused" },
    {
      label: "oversized body of unstated length",
      caller: row.caller,
      rawBody: new Blob([JSON.stringify([null, { ...row.fields, padding: OVERSIZED }])]).stream(),
      contentType: "text/plain;charset=UTF-8",
      expect: "refused",
    },
    // What shape.
    { label: "malformed JSON", caller: row.caller, rawBody: "[null, {", contentType: "text/plain;charset=UTF-8", expect: "refused" },
    { label: "arguments not a list", caller: row.caller, rawBody: JSON.stringify({ 0: null, 1: row.fields }), contentType: "text/plain;charset=UTF-8", expect: "refused" },
    { label: "a Map reference", caller: row.caller, rawBody: JSON.stringify([null, "$Q1"]), contentType: "text/plain;charset=UTF-8", expect: "refused" },
    { label: "a server reference", caller: row.caller, rawBody: JSON.stringify(["$F1", "$h2"]), contentType: "text/plain;charset=UTF-8", expect: "refused" },
    { label: "too many arguments", caller: row.caller, rawBody: JSON.stringify(new Array(1500).fill(null)), contentType: "text/plain;charset=UTF-8", expect: "refused" },
    { label: "broken multipart", caller: row.caller, rawBody: "--x\r\nContent-Disposition: form-data; name=\"0\"\r\n\r\n[", contentType: "multipart/form-data; boundary=x", expect: "refused" },
  ];
  if (!row.noArguments) {
    cases.push(
      // Wrong types.
      { label: "a number for the form", caller: row.caller, args: json(42), expect },
      { label: "text for the form", caller: row.caller, args: json(`${firstField}=x`), expect },
      { label: "a list for the form", caller: row.caller, args: json([row.fields]), expect },
      { label: "no form", caller: row.caller, args: [{ json: null }], expect },
      { label: "a number in a field", caller: row.caller, args: json({ ...row.fields, [firstField]: 42 }), expect },
      { label: "an object in a field", caller: row.caller, args: json({ ...row.fields, [firstField]: { $gt: "" } }), expect },
      { label: "a file in a field", caller: row.caller, rawBody: fileForm(row.fields, firstField), expect },
      // Prototype keys.
      // A computed key: `{ __proto__: … }` would set the literal's prototype, not send a field.
      { label: "__proto__ field", caller: row.caller, args: form({ ...row.fields, ["__proto__"]: "x" }), expect },
      { label: "a NUL character in a field", caller: row.caller, args: form({ ...row.fields, [firstField]: "a\u0000b" }), expect },
      { label: "__proto__ object", caller: row.caller, args: json(JSON.parse(`{"__proto__":{"roles":["admin"],"ok":true},${JSON.stringify(row.fields).slice(1)}`) as unknown), expect },
      { label: "constructor field", caller: row.caller, args: form({ ...row.fields, constructor: "x", prototype: "y" }), expect },
    );
    for (const field of row.ids ?? []) {
      for (const id of MALFORMED_IDS) cases.push({ label: `${field} = ${id}`, caller: row.caller, args: form({ ...row.fields, [field]: id }), expect });
    }
  }
  return cases;
}

/** FormData with a file where a text field belongs, encoded as React would send FormData. */
function fileForm(fields: Record<string, string>, fileField: string): FormData {
  const multipart = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (key === fileField) multipart.append(`_1_${key}`, new Blob(["not text"]), "payload.bin");
    else multipart.append(`_1_${key}`, value);
  }
  multipart.append("0", JSON.stringify([null, "$K1"]));
  return multipart;
}

/** What an action answered, judged; null when it is a clear refusal (or the expected redirect). */
function judgeAction(response: ActionResponse, expect: Expectation): string | null {
  if (response.status >= 500) return `HTTP ${response.status}`;
  if (response.status >= 400) return null;
  if (expect === "redirect") {
    const target = response.redirect ?? response.headers.get("location");
    if (target && (target.startsWith("/") || target.startsWith("http://127.0.0.1"))) return null;
    return `expected a redirect to this site, got ${response.status} ${target ?? ""}`;
  }
  const result = response.result as { ok?: boolean; outcome?: string; error?: unknown; code?: string } | undefined;
  const code =
    result?.ok === false
      ? (result.error as { code?: string } | undefined)?.code
      : result?.outcome === "unavailable" || result?.outcome === "refused" || typeof result?.error === "string"
        ? result.code
        : undefined;
  if (code && FOUR_XX_CODES.has(code)) return null;
  return `expected a 4xx-class refusal, got ${response.status} ${response.redirect ?? ""} ${JSON.stringify(response.result ?? response.body.slice(0, 200))}`;
}

/** One hostile request to a page or route handler, and what may come back. */
interface RouteCase {
  label: string;
  caller: Caller;
  path: string;
  init?: RequestInit;
  /** `4xx`; `sign-in`: a redirect to /login (next-auth: with its error); `signed-out`: next-auth's empty session; `read`: a page that ignores a bad filter (never a 5xx). */
  expect: "4xx" | "sign-in" | "signed-out" | "read";
}

function routeTable(fixture: Fixture): Record<string, RouteCase[]> {
  const form = (body: Record<string, string>) => ({
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });
  const signInPage = (path: string): RouteCase[] => [
    { label: "no session", caller: "anonymous", path, expect: "sign-in" },
    { label: "forged session", caller: "forged", path, expect: "sign-in" },
    { label: "forged token", caller: "forgedJwe", path, expect: "sign-in" },
  ];
  return {
    "/(app)/page": [...signInPage("/"), { label: "undecodable path", caller: "sam", path: "/%E0%A4%A", expect: "4xx" }],
    "/(app)/inbox/page": [
      ...signInPage("/inbox"),
      { label: "wrong role", caller: "ada", path: "/inbox", expect: "4xx" },
      { label: "hostile view", caller: "sam", path: "/inbox?view=__proto__&view=x", expect: "read" },
      { label: "NUL in the query", caller: "sam", path: "/inbox?view=%00", expect: "4xx" },
    ],
    "/(app)/runs/page": [
      ...signInPage("/runs"),
      { label: "wrong role", caller: "sam", path: "/runs", expect: "4xx" },
      { label: "hostile filters", caller: "omar", path: "/runs?state=__proto__&state=%00&workflow=constructor&start=__proto__", expect: "read" },
      { label: "unknown workflow to start", caller: "omar", path: `/runs?start=${encodeURIComponent("' or 1=1 --")}`, expect: "read" },
      { label: "hostile page cursor", caller: "omar", path: `/runs?after=${encodeURIComponent("' or 1=1 --")}&after=${ZERO_UUID}`, expect: "read" },
      { label: "unknown page cursor", caller: "omar", path: `/runs?after=${ZERO_UUID}`, expect: "read" },
    ],
    // Reviews became Runs: the old address checks the caller before sending them on.
    "/(app)/reviews/page": [...signInPage("/reviews"), { label: "wrong role", caller: "sam", path: "/reviews", expect: "4xx" }, { label: "hostile state", caller: "omar", path: "/reviews?state=__proto__&state=%00", expect: "read" }],
    "/(app)/admin/page": [...signInPage("/admin"), { label: "wrong role", caller: "omar", path: "/admin", expect: "4xx" }],
    "/(app)/admin/api-keys/page": [...signInPage("/admin/api-keys"), { label: "wrong role", caller: "sam", path: "/admin/api-keys", expect: "4xx" }],
    "/(app)/admin/deliveries/page": [
      ...signInPage("/admin/deliveries"),
      { label: "wrong role", caller: "omar", path: "/admin/deliveries", expect: "4xx" },
      { label: "hostile query", caller: "ada", path: `/admin/deliveries?limit=${encodeURIComponent("' or 1=1 --")}&__proto__=1`, expect: "read" },
    ],
    "/(app)/admin/audit/page": [
      ...signInPage("/admin/audit"),
      { label: "wrong role", caller: "omar", path: "/admin/audit", expect: "4xx" },
      {
        label: "hostile filters",
        caller: "ada",
        path: `/admin/audit?category=__proto__&who=${encodeURIComponent("' or 1=1 --")}&from=%00&until=9999-12-31&before=-1`,
        expect: "read",
      },
      { label: "NUL and far-off days", caller: "ada", path: "/admin/audit?who=%00&from=0000-01-01&until=2199-12-31&before=99999999999999999999", expect: "read" },
    ],
    "/(app)/admin/people/page": [
      ...signInPage("/admin/people"),
      { label: "wrong role", caller: "omar", path: "/admin/people", expect: "4xx" },
      { label: "hostile search", caller: "ada", path: `/admin/people?q=${encodeURIComponent("' or 1=1 --")}&q=__proto__`, expect: "read" },
      { label: "hostile cursor", caller: "ada", path: `/admin/people?after=${encodeURIComponent("' or 1=1 --")}&after=__proto__`, expect: "read" },
    ],
    "/(app)/admin/people/[id]/page": [
      ...signInPage(`/admin/people/${fixture.samId}`),
      { label: "wrong role", caller: "omar", path: `/admin/people/${fixture.samId}`, expect: "4xx" },
      { label: "malformed id", caller: "ada", path: "/admin/people/not-a-uuid", expect: "4xx" },
      { label: "unknown id", caller: "ada", path: `/admin/people/${ZERO_UUID}`, expect: "4xx" },
    ],
    "/(app)/admin/groups/page": [
      ...signInPage("/admin/groups"),
      { label: "wrong role", caller: "sam", path: "/admin/groups", expect: "4xx" },
      { label: "hostile search", caller: "ada", path: `/admin/groups?q=${encodeURIComponent("' or 1=1 --")}&q=__proto__&group=${encodeURIComponent("%_")}`, expect: "read" },
    ],
    "/(app)/admin/groups/[id]/page": [
      ...signInPage(`/admin/groups/${ZERO_UUID}`),
      { label: "wrong role", caller: "omar", path: `/admin/groups/${ZERO_UUID}`, expect: "4xx" },
      { label: "malformed id", caller: "ada", path: `/admin/groups/not-a-uuid?after=${encodeURIComponent("' or 1=1 --")}`, expect: "4xx" },
      { label: "unknown id", caller: "ada", path: `/admin/groups/${ZERO_UUID}?q=a`, expect: "4xx" },
    ],
    "/(app)/notifications/page": [...signInPage("/notifications"), { label: "hostile query", caller: "sam", path: "/notifications?after=__proto__&x=%00", expect: "read" }],
    // Public: opening a link spends nothing; a made-up token reads like a used one.
    "/(auth)/a/[token]/page": [{ label: "made-up token", caller: "anonymous", path: `/a/${"A".repeat(43)}`, expect: "read" }],
    "/(auth)/invite/[token]/page": [{ label: "made-up token", caller: "anonymous", path: `/invite/${"A".repeat(43)}`, expect: "read" }],
    "/(app)/profile/page": [...signInPage("/profile"), { label: "hostile query", caller: "sam", path: "/profile?keyId=__proto__&name=%00", expect: "read" }],
    "/(app)/admin/sla/page": [
      ...signInPage("/admin/sla"),
      { label: "wrong role", caller: "sam", path: "/admin/sla", expect: "4xx" },
      { label: "hostile filters", caller: "ada", path: `/admin/sla?workflow=__proto__&assignee=${encodeURIComponent("' or 1=1 --")}&agent=%00&period=constructor&risk=-1`, expect: "read" },
    ],
    "/(app)/questions/[id]/page": [
      ...signInPage(`/questions/${fixture.questionId}`),
      { label: "someone else's question", caller: "priya", path: `/questions/${fixture.questionId}`, expect: "4xx" },
      ...MALFORMED_IDS.map((id): RouteCase => ({ label: `id ${id}`, caller: "sam", path: `/questions/${encodeURIComponent(id)}`, expect: "4xx" })),
      { label: "undecodable id", caller: "sam", path: "/questions/%E0%A4%A", expect: "4xx" },
    ],
    "/(app)/tasks/[id]/page": [
      ...signInPage(`/tasks/${fixture.taskId}`),
      { label: "wrong role", caller: "sam", path: `/tasks/${fixture.taskId}`, expect: "4xx" },
      ...MALFORMED_IDS.map((id): RouteCase => ({ label: `id ${id}`, caller: "omar", path: `/tasks/${encodeURIComponent(id)}`, expect: "4xx" })),
      { label: "undecodable id", caller: "omar", path: "/tasks/%ZZ", expect: "4xx" },
    ],
    "/(auth)/login/page": [
      { label: "hostile callback", caller: "anonymous", path: "/login?callbackUrl=https%3A%2F%2Fevil.example%2F&callbackUrl=x", expect: "read" },
      { label: "hostile error", caller: "anonymous", path: "/login?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E", expect: "read" },
    ],
    "/_not-found/page": [{ label: "no such page", caller: "sam", path: "/no-such-page", expect: "4xx" }],
    // The site icon is public and can only be read.
    "/icon.svg/route": [
      { label: "POST", caller: "anonymous", path: "/icon.svg", init: { method: "POST", body: "{}" }, expect: "4xx" },
      { label: "oversized POST", caller: "sam", path: "/icon.svg", init: { method: "POST", body: OVERSIZED }, expect: "4xx" },
      { label: "cross-origin DELETE", caller: "sam", path: "/icon.svg", init: { method: "DELETE", headers: { origin: EVIL_ORIGIN } }, expect: "4xx" },
    ],
    "/_global-error/page": [{ label: "undecodable path", caller: "anonymous", path: "/%ZZ/%E0%A4%A", expect: "4xx" }],
    "/api/events/route": [
      { label: "no session", caller: "anonymous", path: "/api/events", expect: "4xx" },
      { label: "forged session", caller: "forged", path: "/api/events", expect: "4xx" },
      { label: "forged token", caller: "forgedJwe", path: "/api/events", expect: "4xx" },
      { label: "someone else's task", caller: "priya", path: `/api/events?task=${fixture.taskId}`, expect: "4xx" },
      ...MALFORMED_IDS.map((id): RouteCase => ({ label: `task ${id}`, caller: "priya", path: `/api/events?task=${encodeURIComponent(id)}`, expect: "4xx" })),
      { label: "undecodable task", caller: "sam", path: "/api/events?task=%E0%A4%A", expect: "4xx" },
      { label: "POST", caller: "sam", path: "/api/events", init: { method: "POST", body: "{}" }, expect: "4xx" },
      { label: "cross-origin POST", caller: "sam", path: "/api/events", init: { method: "POST", body: "{}", headers: { origin: EVIL_ORIGIN } }, expect: "4xx" },
      { label: "oversized POST", caller: "sam", path: "/api/events", init: { method: "POST", body: OVERSIZED }, expect: "4xx" },
      { label: "DELETE", caller: "ada", path: "/api/events", init: { method: "DELETE" }, expect: "4xx" },
      { label: "a server action posted to it", caller: "sam", path: "/api/events", init: { method: "POST", headers: { "next-action": "7f" + "0".repeat(40) }, body: "[]" }, expect: "4xx" },
      { label: "huge query", caller: "sam", path: `/api/events?task=${"a".repeat(20_000)}`, expect: "4xx" },
    ],
    // Off on this server (no PARLEY_METRICS_TOKEN): nobody, signed in or holding any key, reads them.
    "/api/metrics/route": [
      { label: "no token", caller: "anonymous", path: "/api/metrics", expect: "4xx" },
      { label: "a signed-in admin", caller: "ada", path: "/api/metrics", expect: "4xx" },
      { label: "a made-up bearer token", caller: "anonymous", path: "/api/metrics", init: { headers: { authorization: `Bearer ${"x".repeat(64)}` } }, expect: "4xx" },
      { label: "hostile query", caller: "anonymous", path: `/api/metrics?name[]=__proto__&${"a".repeat(8_000)}=1`, init: { headers: { authorization: "Bearer __proto__" } }, expect: "4xx" },
      { label: "POST", caller: "anonymous", path: "/api/metrics", init: { method: "POST", body: "{}" }, expect: "4xx" },
      { label: "a server action posted to it", caller: "anonymous", path: "/api/metrics", init: { method: "POST", headers: { "next-action": "7f" + "0".repeat(40) }, body: "[]" }, expect: "4xx" },
    ],
    // For load balancers and probes: open to anyone, and nothing a caller sends changes what they say.
    ...Object.fromEntries(
      ["/api/health", "/api/ready"].map((path): [string, RouteCase[]] => [
        `${path}/route`,
        [
          { label: "forged session", caller: "forged", path, expect: "read" },
          { label: "hostile query", caller: "anonymous", path: `${path}?verbose=__proto__&check=%00&${"a".repeat(8_000)}=1`, expect: "read" },
          { label: "POST", caller: "anonymous", path, init: { method: "POST", body: "{}" }, expect: "4xx" },
          { label: "oversized POST", caller: "sam", path, init: { method: "POST", body: OVERSIZED }, expect: "4xx" },
          { label: "DELETE", caller: "ada", path, init: { method: "DELETE" }, expect: "4xx" },
          { label: "a server action posted to it", caller: "anonymous", path, init: { method: "POST", headers: { "next-action": "7f" + "0".repeat(40) }, body: "[]" }, expect: "4xx" },
        ],
      ]),
    ),
    "/(app)/admin/audit/export/route": [
      { label: "no session", caller: "anonymous", path: "/admin/audit/export", expect: "4xx" },
      { label: "forged session", caller: "forged", path: "/admin/audit/export", expect: "4xx" },
      { label: "wrong role", caller: "omar", path: "/admin/audit/export", expect: "4xx" },
      { label: "hostile category", caller: "ada", path: `/admin/audit/export?category=__proto__&category=${encodeURIComponent("' or 1=1 --")}`, expect: "read" },
      { label: "nobody by that name", caller: "ada", path: `/admin/audit/export?who=${encodeURIComponent("' or 1=1 --")}`, expect: "4xx" },
      { label: "not a day", caller: "ada", path: "/admin/audit/export?from=9999-12-31&until=%00", expect: "4xx" },
      { label: "NUL as who", caller: "ada", path: "/admin/audit/export?who=%00", expect: "read" },
      { label: "POST", caller: "ada", path: "/admin/audit/export", init: { method: "POST", body: "{}" }, expect: "4xx" },
    ],
    "/(app)/admin/sla/export/route": [
      { label: "no session", caller: "anonymous", path: "/admin/sla/export", expect: "4xx" },
      { label: "forged session", caller: "forged", path: "/admin/sla/export", expect: "4xx" },
      { label: "forged token", caller: "forgedJwe", path: "/admin/sla/export", expect: "4xx" },
      { label: "wrong role", caller: "omar", path: "/admin/sla/export", expect: "4xx" },
      { label: "hostile period", caller: "ada", path: `/admin/sla/export?period=__proto__&period=${encodeURIComponent("' or 1=1 --")}`, expect: "read" },
      { label: "NUL in the query", caller: "ada", path: "/admin/sla/export?period=%00", expect: "read" },
      { label: "POST", caller: "ada", path: "/admin/sla/export", init: { method: "POST", body: "{}" }, expect: "4xx" },
      { label: "cross-origin POST", caller: "ada", path: "/admin/sla/export", init: { method: "POST", body: "{}", headers: { origin: EVIL_ORIGIN } }, expect: "4xx" },
    ],
    "/api/auth/[...nextauth]/route": [
      { label: "credentials without CSRF token", caller: "anonymous", path: "/api/auth/callback/credentials", init: form({ email: "sam@parley.test", password: "sam-assignee-demo" }), expect: "sign-in" },
      { label: "cross-origin credentials", caller: "anonymous", path: "/api/auth/callback/credentials", init: { ...form({ email: "sam@parley.test", password: "x" }), headers: { "content-type": "application/x-www-form-urlencoded", origin: EVIL_ORIGIN } }, expect: "sign-in" },
      { label: "wrong types", caller: "anonymous", path: "/api/auth/callback/credentials", init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: 42, password: ["x"], csrfToken: {} }) }, expect: "sign-in" },
      { label: "malformed JSON", caller: "anonymous", path: "/api/auth/callback/credentials", init: { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" }, expect: "4xx" },
      { label: "__proto__ keys", caller: "anonymous", path: "/api/auth/callback/credentials", init: form({ "__proto__[admin]": "1", constructor: "x", email: "sam@parley.test", password: "x" }), expect: "sign-in" },
      { label: "oversized", caller: "anonymous", path: "/api/auth/callback/credentials", init: form({ email: OVERSIZED, password: "x" }), expect: "sign-in" },
      { label: "NUL in the email", caller: "anonymous", path: "/api/auth/callback/credentials", init: form({ email: "sam\u0000@parley.test", password: "x" }), expect: "sign-in" },
      { label: "unknown provider", caller: "anonymous", path: "/api/auth/signin/evil", init: form({}), expect: "sign-in" },
      { label: "unknown provider callback", caller: "anonymous", path: "/api/auth/callback/evil?code=x", expect: "sign-in" },
      { label: "unknown action", caller: "anonymous", path: "/api/auth/nope", expect: "4xx" },
      { label: "undecodable action", caller: "anonymous", path: "/api/auth/%E0%A4%A", expect: "4xx" },
      { label: "sign-out without CSRF token", caller: "sam", path: "/api/auth/signout", init: { method: "POST", headers: { origin: EVIL_ORIGIN } }, expect: "sign-in" },
      { label: "forged session", caller: "forgedJwe", path: "/api/auth/session", expect: "signed-out" },
      { label: "session POST with __proto__", caller: "forged", path: "/api/auth/session", init: { method: "POST", headers: { "content-type": "application/json" }, body: '{"__proto__":{"user":{"id":"x"}}}' }, expect: "4xx" },
    ],
  };
}

/** A lone half of a surrogate pair, escaped as JSON may send it: PostgreSQL cannot store it. */
const LONE_SURROGATE_JSON = '"\\ud800"';

/**
 * Hostile requests to the HTTP API's route handlers (bearer keys, JSON bodies): who is calling
 * (no key, a session but no key, an unknown key, the other kind of key, malformed headers), and —
 * with the right key — bodies that are not JSON, too big, of the wrong type or shape, or holding
 * what the database cannot store, and ids and queries that name nothing. Each must be a 4xx, and
 * nothing may change (a refused answer would count an attempt: so every answer sent here is malformed).
 */
function apiRouteTable(fixture: Fixture): Record<string, RouteCase[]> {
  const { agentKey, otherAgentKey, samToken, priyaToken } = fixture.secrets;
  const JSON_TYPE = "application/json";
  const call = (method: string, token: string | null, body?: BodyInit, headers: Record<string, string> = {}): RequestInit => ({
    method,
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { "content-type": JSON_TYPE }), ...headers },
    ...(body === undefined ? {} : { body }),
  });
  /** Who is calling, with a well-meant request otherwise: every one refused. */
  const callers = (path: string, method: string, otherKind: string, body?: string): RouteCase[] => [
    { label: "no key", caller: "anonymous", path, init: call(method, null, body), expect: "4xx" },
    { label: "a session but no key", caller: "sam", path, init: call(method, null, body), expect: "4xx" },
    { label: "an unknown personal token", caller: "anonymous", path, init: call(method, `pt_${randomBytes(24).toString("base64url")}`, body), expect: "4xx" },
    { label: "an unknown agent key", caller: "anonymous", path, init: call(method, `pk_${randomBytes(24).toString("base64url")}`, body), expect: "4xx" },
    { label: "the other kind of key", caller: "anonymous", path, init: call(method, otherKind, body), expect: "4xx" },
    { label: "a key with spaces", caller: "anonymous", path, init: call(method, "' or '1'='1", body), expect: "4xx" },
    { label: "a huge key", caller: "anonymous", path, init: call(method, `pt_${"a".repeat(8_000)}`, body), expect: "4xx" },
    { label: "Bearer with no key", caller: "anonymous", path, init: call(method, null, body, { authorization: "Bearer" }), expect: "4xx" },
    { label: "Basic credentials", caller: "anonymous", path, init: call(method, null, body, { authorization: "Basic c2FtQHBhcmxleS50ZXN0OnNhbS1hc3NpZ25lZS1kZW1v" }), expect: "4xx" },
  ];
  /** Bodies no handler should take, sent with the right key. */
  const bodies = (path: string, token: string): RouteCase[] => {
    const post = (label: string, body: BodyInit | undefined, headers: Record<string, string> = {}): RouteCase => ({
      label,
      caller: "anonymous",
      path,
      init: { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": JSON_TYPE, ...headers }, ...(body === undefined ? {} : { body }) },
      expect: "4xx",
    });
    return [
      post("no body", undefined),
      post("malformed JSON", "{"),
      post("JSON text, not an object", '"non-interactive"'),
      post("a list", "[]"),
      post("null", "null"),
      post("not JSON", "reason=non-interactive", { "content-type": "application/x-www-form-urlencoded" }),
      post("text/plain", "{}", { "content-type": "text/plain" }),
      post("no content type", "{}", { "content-type": "" }),
      post("oversized", JSON.stringify({ padding: OVERSIZED })),
      post("oversized of unstated length", new Blob([JSON.stringify({ padding: OVERSIZED })]).stream()),
      post("an escaped NUL", '{"x":"a\\u0000b"}'),
      post("half a surrogate pair", `{"x":${LONE_SURROGATE_JSON}}`),
      post("nested thousands deep", `{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}`),
      post("a __proto__ object", '{"__proto__":{"roles":["admin"]}}'),
    ];
  };
  const malformedIds = (pathOf: (id: string) => string, method: string, token: string, body?: string): RouteCase[] => [
    ...MALFORMED_IDS.map((id): RouteCase => ({ label: `id ${id}`, caller: "anonymous", path: pathOf(encodeURIComponent(id)), init: call(method, token, body), expect: "4xx" })),
    { label: "undecodable id", caller: "anonymous", path: pathOf("%E0%A4%A"), init: call(method, token, body), expect: "4xx" },
  ];
  const wrongMethods = (path: string, token: string): RouteCase[] =>
    ["PUT", "PATCH", "DELETE"].map((method): RouteCase => ({ label: method, caller: "anonymous", path, init: call(method, token, "{}"), expect: "4xx" }));

  const question = `/api/v1/questions/${fixture.askQuestionId}`;
  const answer = (body: string, token = samToken, path = `${question}/answer`): RouteCase => ({ label: `answers ${body.slice(0, 60)}`, caller: "anonymous", path, init: call("POST", token, body), expect: "4xx" });
  const nothing = (body: string, token = samToken): RouteCase => ({ label: `nothing ${body.slice(0, 60)}`, caller: "anonymous", path: `${question}/nothing`, init: call("POST", token, body), expect: "4xx" });
  const ask = (body: unknown, headers: Record<string, string> = {}): RouteCase => ({
    label: `ask ${JSON.stringify(body).slice(0, 60)}`,
    caller: "anonymous",
    path: "/api/v1/asks",
    init: call("POST", agentKey, JSON.stringify(body), headers),
    expect: "4xx",
  });
  const wellMeantAsk = { to: "sam@parley.test", title: "Hostile ask" };
  /** What a Streamable HTTP client accepts, and one JSON-RPC request to the MCP server. */
  const MCP_ACCEPT = { accept: "application/json, text/event-stream" };
  const mcpCall = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id: 1, method, params });
  return {
    "/api/v1/me/route": [...callers("/api/v1/me", "GET", agentKey), ...wrongMethods("/api/v1/me", samToken), { label: "POST", caller: "anonymous", path: "/api/v1/me", init: call("POST", samToken, "{}"), expect: "4xx" }],
    "/api/v1/questions/route": [
      ...callers("/api/v1/questions", "GET", agentKey),
      ...["0", "101", "-1", "1e3", "abc", "%00"].map((limit): RouteCase => ({ label: `limit ${limit}`, caller: "anonymous", path: `/api/v1/questions?limit=${limit}`, init: call("GET", samToken), expect: "4xx" })),
      ...["' or 1=1 --", "__proto__", "x".repeat(5_000)].map((cursor): RouteCase => ({ label: `cursor ${cursor.slice(0, 20)}`, caller: "anonymous", path: `/api/v1/questions?cursor=${encodeURIComponent(cursor)}`, init: call("GET", samToken), expect: "4xx" })),
      // A cursor naming no question of theirs: an empty page, never another's questions.
      { label: "cursor of nobody's question", caller: "anonymous", path: `/api/v1/questions?cursor=${ZERO_UUID}`, init: call("GET", samToken), expect: "read" },
      ...wrongMethods("/api/v1/questions", samToken),
    ],
    "/api/v1/questions/[id]/route": [
      ...callers(question, "GET", agentKey),
      { label: "someone else's question", caller: "anonymous", path: question, init: call("GET", priyaToken), expect: "4xx" },
      ...malformedIds((id) => `/api/v1/questions/${id}`, "GET", samToken),
      ...wrongMethods(question, samToken),
    ],
    "/api/v1/questions/[id]/answer/route": [
      ...callers(`${question}/answer`, "POST", agentKey, '{"answers":{"answer":"Yes."}}'),
      answer('{"answers":{"answer":"Mine now."}}', priyaToken),
      ...malformedIds((id) => `/api/v1/questions/${id}/answer`, "POST", samToken, '{"answers":{"answer":"Yes."}}'),
      ...bodies(`${question}/answer`, samToken),
      // The shape of an answer: text per field of this question, nothing else.
      answer("{}"),
      answer('{"answers":"Yes."}'),
      answer('{"answers":["Yes."]}'),
      answer('{"answers":{"answer":42}}'),
      answer('{"answers":{"answer":null}}'),
      answer('{"answers":{"answer":["Yes."]}}'),
      answer('{"answers":{"answer":{"$gt":""}}}'),
      answer('{"answers":{"answer":"Yes."},"by":"priya@parley.test"}'),
      answer('{"answers":{"__proto__":"Yes."}}'),
      answer('{"answers":{"constructor":"Yes.","prototype":"Yes."}}'),
      answer('{"answers":{"answer.x":"Yes."}}'),
      answer(`{"answers":{"${"k".repeat(600)}":"Yes."}}`),
      answer(`{"answers":{"answer":"a\\u0000b"}}`),
      answer(`{"answers":{"answer":${LONE_SURROGATE_JSON}}}`),
      { label: "GET", caller: "anonymous", path: `${question}/answer`, init: call("GET", samToken), expect: "4xx" },
    ],
    "/api/v1/questions/[id]/nothing/route": [
      ...callers(`${question}/nothing`, "POST", agentKey, '{"reason":"non-interactive"}'),
      nothing('{"reason":"non-interactive"}', priyaToken),
      ...malformedIds((id) => `/api/v1/questions/${id}/nothing`, "POST", samToken, '{"reason":"non-interactive"}'),
      ...bodies(`${question}/nothing`, samToken),
      ...['{"reason":"away"}', '{"reason":"cancelled"}', '{"reason":"refused"}', '{"reason":"expired"}', '{"reason":42}', '{"reason":null}', "{}", '{"reason":"non-interactive","by":"priya"}', '{"reason":["non-interactive"]}'].map((body) => nothing(body)),
      // Declining: only a question put to you, with a note that is text of at most 1,000 characters.
      nothing('{"reason":"declined","note":"Not mine."}', priyaToken),
      ...[`{"reason":"declined","note":"${"x".repeat(1_001)}"}`, '{"reason":"declined","note":42}', '{"reason":"declined","note":{"$gt":""}}', '{"reason":"declined","note":["a"]}', '{"reason":"declined","by":"priya"}', `{"reason":"declined","note":${LONE_SURROGATE_JSON}}`].map((body) => nothing(body)),
    ],
    "/api/v1/asks/route": [
      ...callers("/api/v1/asks", "POST", samToken, JSON.stringify(wellMeantAsk)),
      ...callers("/api/v1/asks", "GET", samToken),
      ...bodies("/api/v1/asks", agentKey),
      ask({ ...wellMeantAsk, to: { $gt: "" } }),
      ask({ ...wellMeantAsk, to: "nobody@parley.test" }),
      ask({ ...wellMeantAsk, to: "omar@parley.test" }),
      ask({ ...wellMeantAsk, to: [] }),
      ask({ ...wellMeantAsk, to: { group: "admins" } }),
      ask({ ...wellMeantAsk, title: "" }),
      ask({ ...wellMeantAsk, title: 42 }),
      ask({ ...wellMeantAsk, title: "x".repeat(301) }),
      ask({ ...wellMeantAsk, due_at: "2000-01-01T00:00:00Z" }),
      ask({ ...wellMeantAsk, due_at: "tomorrow" }),
      ask({ ...wellMeantAsk, due_in_seconds: -1 }),
      ask({ ...wellMeantAsk, attempts: 0 }),
      ask({ ...wellMeantAsk, callback_url: "javascript:alert(1)" }),
      ask({ ...wellMeantAsk, response_schema: { type: "object", properties: { a: { $ref: "#/$defs/a" } } } }),
      ask({ ...wellMeantAsk, response_schema: { type: "string" } }),
      ask({ ...wellMeantAsk, metadata: { padding: "x".repeat(5_000) } }),
      ask({ ...wellMeantAsk, unknown: true }),
      // What PostgreSQL cannot store, where a well-meant ask has text and json.
      ask({ ...wellMeantAsk, title: "Ship\u0000it?" }),
      ask({ ...wellMeantAsk, title: "Ship \ud800?" }),
      ask({ ...wellMeantAsk, context: { "a\u0000": "b" } }),
      { label: "metadata nested thousands deep", caller: "anonymous", path: "/api/v1/asks", init: call("POST", agentKey, `{"to":"sam@parley.test","title":"Deep","metadata":{"x":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`), expect: "4xx" },
      ask(wellMeantAsk, { "idempotency-key": "x".repeat(300) }),
      ask(wellMeantAsk, { "idempotency-key": "has spaces" }),
      ...["open%00", "__proto__", "x"].map((status): RouteCase => ({ label: `status ${status}`, caller: "anonymous", path: `/api/v1/asks?status=${status}`, init: call("GET", agentKey), expect: "4xx" })),
      ...["0", "101", "abc"].map((limit): RouteCase => ({ label: `limit ${limit}`, caller: "anonymous", path: `/api/v1/asks?limit=${limit}`, init: call("GET", agentKey), expect: "4xx" })),
      { label: "a forged cursor", caller: "anonymous", path: `/api/v1/asks?cursor=${Buffer.from("nope|' or 1=1").toString("base64url")}`, init: call("GET", agentKey), expect: "4xx" },
      ...wrongMethods("/api/v1/asks", agentKey),
    ],
    "/api/v1/asks/[id]/route": [
      ...callers(`/api/v1/asks/${fixture.askId}`, "GET", samToken),
      { label: "another key's ask", caller: "anonymous", path: `/api/v1/asks/${fixture.askId}`, init: call("GET", otherAgentKey), expect: "4xx" },
      ...malformedIds((id) => `/api/v1/asks/${id}`, "GET", agentKey),
      ...["-1", "61", "abc", "1.5"].map((wait): RouteCase => ({ label: `wait ${wait}`, caller: "anonymous", path: `/api/v1/asks/${fixture.askId}?wait=${wait}`, init: call("GET", agentKey), expect: "4xx" })),
      ...wrongMethods(`/api/v1/asks/${fixture.askId}`, agentKey),
    ],
    "/api/v1/asks/[id]/cancel/route": [
      ...callers(`/api/v1/asks/${fixture.askId}/cancel`, "POST", samToken),
      { label: "another key's ask", caller: "anonymous", path: `/api/v1/asks/${fixture.askId}/cancel`, init: call("POST", otherAgentKey), expect: "4xx" },
      ...malformedIds((id) => `/api/v1/asks/${id}/cancel`, "POST", agentKey),
      { label: "GET", caller: "anonymous", path: `/api/v1/asks/${fixture.askId}/cancel`, init: call("GET", agentKey), expect: "4xx" },
    ],
    "/api/mcp/route": [
      ...callers("/api/mcp", "POST", samToken, JSON.stringify(mcpCall("tools/list"))),
      ...bodies("/api/mcp", agentKey),
      ...["GET", "PUT", "DELETE"].map((method): RouteCase => ({ label: method, caller: "anonymous", path: "/api/mcp", init: call(method, agentKey, method === "GET" ? undefined : "{}", MCP_ACCEPT), expect: "4xx" })),
      { label: "an empty batch", caller: "anonymous", path: "/api/mcp", init: call("POST", agentKey, "[]", MCP_ACCEPT), expect: "4xx" },
      { label: "not a JSON-RPC message", caller: "anonymous", path: "/api/mcp", init: call("POST", agentKey, '{"method":"tools/call"}', MCP_ACCEPT), expect: "4xx" },
      { label: "no Accept for a stream", caller: "anonymous", path: "/api/mcp", init: call("POST", agentKey, JSON.stringify(mcpCall("tools/list"))), expect: "4xx" },
      // Past the transport, a refused tool call is a tool error in a 200: never a 500, and nothing is asked.
      ...[
        { to: "nobody@parley.test", question: "Hostile?" },
        { to: "sam@parley.test", question: "x".repeat(1_100_000) },
        { to: "sam@parley.test", question: "Hostile?", response_schema: { type: "object", properties: { a: { $ref: "#/x" } } } },
        { to: ["__proto__"], question: "Hostile?" },
        { question: "Hostile?" },
      ].map((args): RouteCase => ({
        label: `ask_person ${JSON.stringify(args).slice(0, 60)}`,
        caller: "anonymous",
        path: "/api/mcp",
        init: call("POST", agentKey, JSON.stringify(mcpCall("tools/call", { name: "ask_person", arguments: args })), MCP_ACCEPT),
        expect: "read",
      })),
      ...["await_answer", "cancel_ask"].flatMap((name) =>
        [ZERO_UUID, "' or 1=1 --", fixture.askId].map((id): RouteCase => ({
          label: `${name} ${id.slice(0, 20)} (another key's when it is real)`,
          caller: "anonymous",
          path: "/api/mcp",
          init: call("POST", otherAgentKey, JSON.stringify(mcpCall("tools/call", { name, arguments: { ask_id: id, wait_seconds: 0 } })), MCP_ACCEPT),
          expect: "read",
        })),
      ),
    ],
    // The contract is public and can only be read.
    "/api/v1/openapi.json/route": [
      { label: "POST", caller: "anonymous", path: "/api/v1/openapi.json", init: call("POST", null, "{}"), expect: "4xx" },
      { label: "oversized POST", caller: "sam", path: "/api/v1/openapi.json", init: call("POST", null, JSON.stringify({ padding: OVERSIZED })), expect: "4xx" },
      { label: "DELETE", caller: "anonymous", path: "/api/v1/openapi.json", init: call("DELETE", agentKey), expect: "4xx" },
    ],
  };
}

/**
 * A snapshot without when each API key was last used: a request with a live key records that (at most
 * once a minute, on the key and as a "used" line of the audit log), which is its use, not a change the
 * hostile request made.
 */
function withoutKeyUse(snapshot: Record<string, string>): Record<string, string> {
  const rows = JSON.parse(snapshot.api_keys ?? "[]") as Record<string, unknown>[];
  for (const row of rows) delete row.last_used_at;
  const audit = (JSON.parse(snapshot.audit_events ?? "[]") as Record<string, unknown>[]).filter((row) => row.action !== "key-used");
  return { ...snapshot, api_keys: JSON.stringify(rows), audit_events: JSON.stringify(audit) };
}

/**
 * What an action records by design whoever calls it, and how: a wrong password is counted (the sign-in
 * throttle), and signing out records the session it ended.
 */
const RECORDED_BY_DESIGN: Record<string, string> = {
  "app/(auth)/login/actions.ts#signInWithPassword": "sign_in_throttle",
  "app/(app)/actions.ts#signOutAction": "ended_sessions",
};

/**
 * The SLA numbers as last worked out: any read of the SLA page or its export may refresh them (behind
 * the page, so the write can land while later requests are being sent). Derived from the slots, they
 * are no state anyone acts on, and are left out of "changes nothing".
 */
const READINGS_KEPT = "sla_snapshots";

/** The snapshot without one table. */
function without(snapshot: Record<string, string>, table: string): Record<string, string> {
  return Object.fromEntries(Object.entries(snapshot).filter(([name]) => name !== table));
}

/** The snapshot without when each person last looked at their inbox: reading the inbox records that, and nothing else. */
function withoutInboxLooks(snapshot: Record<string, string>): Record<string, string> {
  const rows = JSON.parse(snapshot.users ?? "[]") as Record<string, unknown>[];
  for (const row of rows) delete row.inbox_seen_at;
  return { ...snapshot, users: JSON.stringify(rows) };
}

function judgeRoute(response: HttpResponse, expect: RouteCase["expect"]): string | null {
  if (response.status >= 500) return `HTTP ${response.status}`;
  const location = response.headers.get("location") ?? "";
  switch (expect) {
    case "4xx":
      return response.status >= 400 ? null : `expected a 4xx, got ${response.status} ${location}`;
    case "sign-in":
      return response.status >= 400 || (response.status >= 300 && /\/login(\?|$)/.test(location) && !location.includes("evil.example"))
        ? null
        : `expected sign-in, got ${response.status} ${location}`;
    case "signed-out":
      return response.status >= 400 || (response.status === 200 && response.body.trim() === "null") ? null : `expected no session, got ${response.status} ${response.body.slice(0, 100)}`;
    case "read":
      return null;
  }
}

describe("hostile input to every server action, route handler and page", () => {
  let database: FaultDatabase;
  let server: ServerProcess;
  let fixture: Fixture;
  const clients = new Map<Caller, HttpClient>();

  beforeAll(async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "hostile");
    server = await startServer({ port: 3151, databaseUrl: database.url, authSecret: randomBytes(33).toString("base64") });
    const { sql } = database;
    for (const caller of ["sam", "priya", "omar", "ada"] as const) {
      const user = DEMO_USERS.find((person) => person.email.startsWith(`${caller}@`))!;
      const client = new HttpClient(server.baseUrl);
      await client.signIn(user.email, user.password);
      clients.set(caller, client);
    }
    const signingOut = new HttpClient(server.baseUrl);
    await signingOut.signIn("sam@parley.test", DEMO_USERS.find((person) => person.email === "sam@parley.test")!.password);
    clients.set("samSigningOut", signingOut);
    clients.set("anonymous", new HttpClient(server.baseUrl));
    const forged = new HttpClient(server.baseUrl);
    forged.cookies.set("authjs.session-token", "forged");
    clients.set("forged", forged);
    // Shaped like a real session token (five base64url parts), signed with nothing of ours.
    const forgedJwe = new HttpClient(server.baseUrl);
    forgedJwe.cookies.set("authjs.session-token", Array.from({ length: 5 }, () => randomBytes(24).toString("base64url")).join("."));
    clients.set("forgedJwe", forgedJwe);

    // A question for Sam alone: the other assignees are away while it is asked.
    await sql`update users set away = true where email in ('priya@parley.test', 'lee@parley.test')`;
    const samId = database.people["sam@parley.test"]!;
    const started = await callAction(clients.get("omar")!, {
      actionId: serverActionIds().get("app/(app)/runs/actions.ts#startRunAction")!,
      args: [{ json: null }, { form: { workflow: "ReviewClaim", startToken: randomUUID(), title: "Dinner, Lisbon", amount: "482.50", currency: "EUR", merchant: "Cervejaria Ramiro", incurredOn: "2026-11-03", description: "Dinner.", assigneeId: samId } }],
    });
    const taskId = startedTaskId(started);
    if (!taskId) throw new Error(`starting the review failed: ${started.status} ${started.body.slice(0, 3000)}`);
    const question = await until("the Auditor's question is asked", async () => {
      const [row] = await sql<{ id: string; slot_id: string }[]>`
        select a.id, a.slot_id from asks a where a.task_id = ${taskId} and a.status = 'open' and a.slot_id is not null
          and not exists (select 1 from jobs where status in ('queued', 'running'))`;
      return row;
    });
    await sql`update users set away = false`;
    const makeKey = async (caller: Caller, action: string, name: string) => {
      const made = await callAction(clients.get(caller)!, { actionId: serverActionIds().get(action)!, args: [{ json: null }, { form: { name } }] });
      const data = (made.result as { data?: { key?: { id?: string }; secret?: string } } | undefined)?.data;
      if (!data?.key?.id || !data.secret) throw new Error(`making a key failed: ${made.status} ${made.body.slice(0, 3000)}`);
      return { id: data.key.id, secret: data.secret };
    };
    const agentKey = await makeKey("ada", "app/(app)/admin/api-keys/actions.ts#createAgentKeyAction", "Fixture bot");
    const otherAgentKey = await makeKey("ada", "app/(app)/admin/api-keys/actions.ts#createAgentKeyAction", "Other fixture bot");
    const samToken = await makeKey("sam", "app/(app)/profile/actions.ts#createPersonalTokenAction", "Sam's fixture laptop");
    const priyaToken = await makeKey("priya", "app/(app)/profile/actions.ts#createPersonalTokenAction", "Priya's fixture laptop");
    // A question put to Sam over the API, for the person's routes and the asks routes.
    const asked = await clients.get("anonymous")!.request("/api/v1/asks", {
      method: "POST",
      headers: { authorization: `Bearer ${agentKey.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ to: "sam@parley.test", title: "Ship the fixture?" }),
    });
    const ask = JSON.parse(asked.body) as { id?: string; status?: string; url?: string };
    if (asked.status !== 201 || ask.status !== "open") throw new Error(`asking over the API failed: ${asked.status} ${asked.body.slice(0, 3000)}`);
    fixture = {
      questionId: question.id,
      taskId,
      slotId: question.slot_id,
      samId,
      agentKeyId: agentKey.id,
      samTokenId: samToken.id,
      secrets: { agentKey: agentKey.secret, otherAgentKey: otherAgentKey.secret, samToken: samToken.secret, priyaToken: priyaToken.secret },
      askId: ask.id!,
      askQuestionId: ask.url!.split("/").at(-1)!,
    };
  });

  afterAll(async () => {
    await server?.kill9();
    await database?.drop();
  });

  it("every one gets a clear 4xx-class answer, never a 500, and changes nothing", async () => {
    const failures: string[] = [];
    const ids = serverActionIds();
    const actions = actionTable(fixture);
    // A new action with no row here fails: nobody gets to skip the hostile callers.
    expect([...ids.keys()].filter((action) => !(action in actions))).toEqual([]);
    const apiRoutes = apiRouteTable(fixture);
    const routes = { ...routeTable(fixture), ...apiRoutes };
    expect(appPaths().filter((path) => !(path in routes))).toEqual([]);

    let requests = 0;
    let before = without(await snapshotTables(database.sql), READINGS_KEPT);
    const checkUnchanged = async (group: string) => {
      const after = without(await snapshotTables(database.sql), READINGS_KEPT);
      const changed =
        group in apiRoutes
          ? changedTables(withoutKeyUse(before), withoutKeyUse(after))
          : group === "/(app)/inbox/page"
            ? changedTables(withoutInboxLooks(before), withoutInboxLooks(after))
            : group in RECORDED_BY_DESIGN
              ? changedTables(without(before, RECORDED_BY_DESIGN[group]!), without(after, RECORDED_BY_DESIGN[group]!))
              : changedTables(before, after);
      if (changed.length > 0) failures.push(`${group} changed ${changed.join(", ")}`);
      before = after;
    };

    for (const [action, row] of Object.entries(actions)) {
      for (const each of actionCases(row)) {
        // A copy per request: signing out (or in) must not change who the next request is from.
        const client = clients.get(each.caller)!.copy();
        const response = await callAction(client, {
          actionId: ids.get(action)!,
          ...(each.args ? { args: each.args } : {}),
          ...(each.rawBody !== undefined ? { rawBody: each.rawBody, contentType: each.contentType } : {}),
          ...(each.origin !== undefined ? { origin: each.origin } : {}),
          // A page every caller may post to; the action, not the page, decides.
          path: "/login",
        });
        requests++;
        const failure = judgeAction(response, each.expect);
        if (failure) failures.push(`${action} — ${each.label} (${each.caller}): ${failure}`);
      }
      await checkUnchanged(action);
    }

    for (const [label, actionId] of [
      ["unknown action id", "7f" + "0".repeat(40)],
      ["malformed action id", "<script>"],
    ]) {
      const response = await callAction(clients.get("sam")!, { actionId: actionId!, args: [], path: "/inbox" });
      requests++;
      if (response.status < 400 || response.status >= 500) failures.push(`${label}: HTTP ${response.status}`);
    }
    await checkUnchanged("unknown actions");

    for (const [path, cases] of Object.entries(routes)) {
      for (const each of cases) {
        const response = await clients.get(each.caller)!.copy().request(each.path, each.init ?? {});
        requests++;
        const failure = judgeRoute(response, each.expect);
        if (failure) failures.push(`${path} — ${each.label} (${each.caller} ${each.init?.method ?? "GET"} ${each.path.slice(0, 80)}): ${failure}`);
      }
      await checkUnchanged(path);
    }

    // Next.js marks every error it turned into a 500 with ⨯; none may appear.
    const serverErrors = server.output().split("\n").filter((line) => line.includes("⨯"));
    console.log(`hostile input: ${requests} requests to ${Object.keys(actions).length} actions and ${Object.keys(routes).length} pages and routes`);
    expect({ failures, serverErrors }).toEqual({ failures: [], serverErrors: [] });
  });
});
