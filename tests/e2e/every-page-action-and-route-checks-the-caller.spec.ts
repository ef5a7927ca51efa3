import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";
import { callFormAction, listServerActions } from "./support/form-actions";
import { callServerAction, serverActionId } from "./support/server-actions";

/** Who calls: nobody signed in; the question's assignee; an assignee who is no candidate for it; an operator; an admin. */
const ROLES = ["anonymous", "assignee", "nonCandidate", "operator", "admin"] as const;
type Role = (typeof ROLES)[number];

/** What a page does: shows (200), refuses the role (403), hides what isn't theirs (404), or sends a visitor to sign in. */
type PageOutcome = 200 | 403 | 404 | "sign-in";

const ZERO_UUID = "00000000-0000-4000-8000-000000000000";

interface Fixture {
  questionId: string;
  taskId: string;
  samId: string;
  /** A question put to Sam over the API, for the person's API (closed with nothing by his token, last). */
  askedQuestionId: string;
  /** Each signed-in role's own personal token. */
  tokens: Record<Exclude<Role, "anonymous">, string>;
}

/** Each page, for each role. */
function pageTable(fixture: Fixture): Record<string, Record<Role, PageOutcome>> {
  return {
    "/inbox": { anonymous: "sign-in", assignee: 200, nonCandidate: 200, operator: 403, admin: 403 },
    "/runs": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 200, admin: 200 },
    "/runs?start=DeployApproval": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 200, admin: 200 },
    "/admin": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/sla": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/api-keys": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/deliveries": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/audit": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/people": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/people?q=sam": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    [`/admin/people/${fixture.samId}`]: { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    [`/admin/people/${ZERO_UUID}`]: { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 404 },
    "/admin/groups": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/groups?q=sam": { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    [`/admin/groups/${ZERO_UUID}`]: { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 403, admin: 404 },
    // Public: the link is the authority, and a wrong one is told it no longer works.
    [`/invite/${"A".repeat(43)}`]: { anonymous: 200, assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
    // Everyone's own.
    "/profile": { anonymous: "sign-in", assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
    "/notifications": { anonymous: "sign-in", assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
    // An email's answer link: public (its token is the credential); opening it uses nothing.
    [`/a/${"A".repeat(43)}`]: { anonymous: 200, assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
    [`/questions/${fixture.questionId}`]: { anonymous: "sign-in", assignee: 200, nonCandidate: 404, operator: 404, admin: 404 },
    // Operators and admins only.
    [`/tasks/${fixture.taskId}`]: { anonymous: "sign-in", assignee: 403, nonCandidate: 403, operator: 200, admin: 200 },
  };
}

/** Each route handler, for each role: the HTTP status. */
function routeTable(fixture: Fixture): Record<string, Record<Role, number>> {
  return {
    "/api/events": { anonymous: 401, assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
    [`/api/events?task=${fixture.taskId}`]: { anonymous: 401, assignee: 200, nonCandidate: 404, operator: 200, admin: 200 },
    "/admin/sla/export?period=30d": { anonymous: 401, assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    "/admin/audit/export?category=answers": { anonymous: 401, assignee: 403, nonCandidate: 403, operator: 403, admin: 200 },
    // Off unless PARLEY_METRICS_TOKEN is set (it is not here), and then for a scraper holding it, never for a session.
    "/api/metrics": { anonymous: 404, assignee: 404, nonCandidate: 404, operator: 404, admin: 404 },
    // For load balancers and probes: open to anyone, saying nothing but whether Parley is up.
    "/api/health": { anonymous: 200, assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
    "/api/ready": { anonymous: 200, assignee: 200, nonCandidate: 200, operator: 200, admin: 200 },
  };
}

/**
 * Each route of the API's person side, called with the role's own personal token (nobody signed in:
 * none), in this order — closing with nothing comes last, for Sam it ends the question — and the
 * HTTP status. A token acts as its person only: another's question is as unknown as no question.
 */
function personalRouteTable(fixture: Fixture): { method: "GET" | "POST"; path: string; body?: unknown; outcomes: Record<Role, number> }[] {
  const everyone = { anonymous: 401, assignee: 200, nonCandidate: 200, operator: 200, admin: 200 };
  const samsOnly = (status: number) => ({ anonymous: 401, assignee: status, nonCandidate: 404, operator: 404, admin: 404 });
  const question = `/api/v1/questions/${fixture.askedQuestionId}`;
  return [
    { method: "GET", path: "/api/v1/me", outcomes: everyone },
    { method: "GET", path: "/api/v1/questions", outcomes: everyone },
    { method: "GET", path: question, outcomes: samsOnly(200) },
    // Past every check, to the asker's schema (an empty answer is refused, so nothing is answered).
    { method: "POST", path: `${question}/answer`, body: { answers: { answer: "" } }, outcomes: samsOnly(422) },
    { method: "POST", path: `${question}/nothing`, body: { reason: "non-interactive" }, outcomes: samsOnly(200) },
    // A personal token answers; it does not ask.
    { method: "GET", path: "/api/v1/asks", outcomes: { anonymous: 401, assignee: 401, nonCandidate: 401, operator: 401, admin: 401 } },
    // Nor does it ask over MCP: only an agent key opens the MCP server, before any message is read.
    {
      method: "POST",
      path: "/api/mcp",
      body: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      outcomes: { anonymous: 401, assignee: 401, nonCandidate: 401, operator: 401, admin: 401 },
    },
  ];
}

/** The secret a key-making action returned (`"secret":"pk_…"` / `"pt_…"`). */
function secretIn(body: string, prefix: "pk_" | "pt_"): string {
  const secret = new RegExp(`"secret":"(${prefix}[A-Za-z0-9_-]+)"`).exec(body)?.[1];
  if (!secret) throw new Error(`no ${prefix} secret in ${body.slice(0, 300)}`);
  return secret;
}

/** Calls one of the API's routes: with a bearer token, or with only what the page's cookies carry. */
async function callApi(request: APIRequestContext, route: { method: "GET" | "POST"; path: string; body?: unknown }, token: string | undefined): Promise<number> {
  const response = await request.fetch(route.path, {
    method: route.method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(route.body === undefined ? {} : { data: route.body }),
  });
  return response.status();
}

/**
 * Each server action: the arguments it is called with (form fields; null for the previous state),
 * and for each role a piece of the response that shows the outcome — a refusal code, or what the
 * action does once past its check. An action missing here fails the test.
 */
/** An action's arguments with `{role}` in their text read as the calling role's name. */
function forRole(args: (Record<string, string> | null)[], role: Role): (Record<string, string> | null)[] {
  return args.map((arg) => arg && Object.fromEntries(Object.entries(arg).map(([name, value]) => [name, value.replaceAll("{role}", role)])));
}

function actionTable(fixture: Fixture): Record<string, { args: (Record<string, string> | null)[]; outcomes: Record<Role, string> }> {
  const refused = { anonymous: '"code":"unauthorized"', assignee: '"code":"forbidden"', nonCandidate: '"code":"forbidden"' };
  return {
    "app/(app)/actions.ts#setMyAwayAction": {
      args: [null, { away: "false" }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"ok":true', nonCandidate: '"ok":true', operator: '"ok":true', admin: '"ok":true' },
    },
    "app/(app)/admin/actions.ts#bulkWaitsAction": {
      // A wait that is no wait: past the check, the admin's reminder reaches nobody and changes nothing.
      args: [null, { do: "remind", slotId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"notOpen":1' },
    },
    "app/(app)/admin/actions.ts#findPeopleToReassignToAction": {
      // Admins only: who answers questions is for the ones who reassign their waits.
      args: [null, { words: "priya" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: "priya@parley.test" },
    },
    "app/(app)/actions.ts#setDensityAction": {
      // Anyone signed in chooses their own rows: a cookie of their browser, nothing stored.
      args: [null, { density: "compact" }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"ok":true', nonCandidate: '"ok":true', operator: '"ok":true', admin: '"ok":true' },
    },
    "app/(app)/actions.ts#findInPaletteAction": {
      // Anyone signed in may look: what comes back is only what they may open (questions of their own, runs for operators and admins).
      args: [null, { words: "claim" }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"ok":true', nonCandidate: '"ok":true', operator: '"ok":true', admin: '"ok":true' },
    },
    "app/(app)/actions.ts#signOutAction": {
      args: [],
      // Anyone may sign out (nobody signed in included): it only ends the caller's own session.
      outcomes: { anonymous: "redirect", assignee: "redirect", nonCandidate: "redirect", operator: "redirect", admin: "redirect" },
    },
    "app/(auth)/login/actions.ts#signInWithPassword": {
      // An address of each role's own: five wrong passwords for one account would make it wait (the sign-in throttle).
      args: [null, { email: "nobody-{role}@parley.test", password: "not-a-password" }],
      outcomes: Object.fromEntries(ROLES.map((role) => [role, "don't match an account"])) as Record<Role, string>,
    },
    "app/(auth)/login/actions.ts#signInWithOidc": {
      args: [{ callbackUrl: "/inbox" }],
      // Public: sends anyone to sign in (single sign-on is not configured on the test server, so to the sign-in page).
      outcomes: Object.fromEntries(ROLES.map((role) => [role, "redirect"])) as Record<Role, string>,
    },
    "app/(app)/questions/[id]/actions.ts#submitAnswerAction": {
      args: [null, { questionId: fixture.questionId, answer: "" }],
      outcomes: {
        anonymous: "Please sign in to continue.",
        // Past every check, to the flow's own schema (an empty answer is refused, so nothing is answered).
        assignee: "This question needs an answer.",
        nonCandidate: "not yours to answer",
        operator: "not yours to answer",
        admin: "not yours to answer",
      },
    },
    "app/(app)/questions/[id]/actions.ts#claimQuestionAction": {
      args: [null, { questionId: fixture.questionId, intent: "take" }],
      outcomes: {
        anonymous: '"code":"unauthorized"',
        // Past every check to the runtime: a question with an assignee is nobody's to take.
        assignee: "can no longer be taken",
        nonCandidate: "not yours to answer",
        operator: "not yours to answer",
        admin: "not yours to answer",
      },
    },
    "app/(app)/questions/[id]/actions.ts#snoozeQuestionAction": {
      // Sam snoozes his question (and is sent back to his inbox); the next row brings it back for him.
      args: [null, { questionId: fixture.questionId, for: "1h" }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: "redirect", nonCandidate: "not yours to answer", operator: "not yours to answer", admin: "not yours to answer" },
    },
    "app/(app)/questions/[id]/actions.ts#wakeQuestionAction": {
      // Only one's own snooze ends: anyone else has none of this question's to end.
      args: [null, { questionId: fixture.questionId }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"ok":true', nonCandidate: '"code":"not_found"', operator: '"code":"not_found"', admin: '"code":"not_found"' },
    },
    "app/(app)/questions/[id]/actions.ts#declineQuestionAction": {
      // A note one character too long: past every check to the runtime, which refuses it and leaves the question open.
      args: [null, { questionId: fixture.questionId, note: "x".repeat(1001) }],
      outcomes: {
        anonymous: '"code":"unauthorized"',
        assignee: "keep it to 1,000",
        nonCandidate: "not yours to answer",
        operator: "not yours to answer",
        admin: "not yours to answer",
      },
    },
    "app/(app)/runs/actions.ts#startRunAction": {
      args: [null, { workflow: "ReviewClaim" }],
      outcomes: {
        anonymous: '"code":"unauthorized"',
        assignee: '"code":"forbidden"',
        nonCandidate: '"code":"forbidden"',
        // Past every check, to the workflow's own start schema (an empty form is refused on its fields, so nothing starts).
        operator: "Give the claim a title.",
        admin: '"code":"forbidden"',
      },
    },
    "app/(app)/runs/actions.ts#runAgainAction": {
      args: [null, { taskId: ZERO_UUID, confirm: "yes" }],
      outcomes: { ...refused, operator: '"code":"not_found"', admin: '"code":"forbidden"' },
    },
    "app/(app)/tasks/[id]/actions.ts#cancelRunAction": {
      // A run that is not there: past every check, nothing to cancel (the fixture's own run stays waiting).
      args: [null, { taskId: ZERO_UUID, confirm: "yes" }],
      outcomes: { ...refused, operator: '"code":"not_found"', admin: '"code":"not_found"' },
    },
    "app/(app)/tasks/[id]/actions.ts#retryRunAction": {
      args: [null, { taskId: fixture.taskId }],
      outcomes: { ...refused, operator: '"code":"conflict"', admin: '"code":"forbidden"' },
    },
    "app/(app)/admin/actions.ts#setPersonAwayAction": {
      args: [null, { userId: fixture.samId, away: "false" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"ok":true' },
    },
    "app/(app)/admin/actions.ts#reassignSlotAction": {
      args: [null, { slotId: ZERO_UUID, assigneeId: fixture.samId }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"conflict"' },
    },
    "app/(app)/admin/actions.ts#remindAction": {
      args: [null, { questionId: fixture.questionId }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"queued":0' },
    },
    "app/(app)/admin/api-keys/actions.ts#createAgentKeyAction": {
      args: [null, { name: "Caller check" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"secret":"pk_' },
    },
    "app/(app)/admin/api-keys/actions.ts#revokeAgentKeyAction": {
      args: [null, { keyId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/people/actions.ts#addPersonAction": {
      // Past every check, to the form's own rules (an empty form is refused on its fields, so nobody is added).
      args: [null, { name: "", email: "", roles: "assignee" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: "Give their name, as others will see it." },
    },
    "app/(app)/admin/people/actions.ts#inviteAgainAction": {
      args: [null, { personId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/people/actions.ts#changeRolesAction": {
      args: [null, { personId: ZERO_UUID, roles: "assignee" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/people/actions.ts#changeGroupsAction": {
      args: [null, { personId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/people/actions.ts#deactivatePersonAction": {
      args: [null, { personId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/people/actions.ts#reactivatePersonAction": {
      args: [null, { personId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/groups/actions.ts#createGroupAction": {
      args: [null, { name: "  " }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: "Give the group a name, e.g. finance or on-call." },
    },
    "app/(app)/admin/groups/actions.ts#addGroupMemberAction": {
      args: [null, { groupId: ZERO_UUID, userId: fixture.samId }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/groups/actions.ts#removeGroupMemberAction": {
      args: [null, { groupId: ZERO_UUID, userId: fixture.samId }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/groups/actions.ts#renameGroupAction": {
      args: [null, { groupId: ZERO_UUID, name: "renamed" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(app)/admin/groups/actions.ts#deleteGroupAction": {
      args: [null, { groupId: ZERO_UUID }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"code":"not_found"' },
    },
    "app/(auth)/invite/[token]/actions.ts#setPasswordWithInvite": {
      // Public, like sign-in: the link is the authority, and this one is no link.
      args: [null, { token: "A".repeat(43), password: "a long enough password", confirm: "a long enough password" }],
      outcomes: Object.fromEntries(ROLES.map((role) => [role, "has expired or has already been used"])) as Record<Role, string>,
    },
    // An admin names anyone's delegate (nobody, here: what Sam has already).
    "app/(app)/admin/people/actions.ts#setPersonDelegateAction": {
      args: [null, { personId: fixture.samId, delegateId: "" }],
      outcomes: { ...refused, operator: '"code":"forbidden"', admin: '"ok":true' },
    },
    // Whoever answers questions names their own delegate (nobody, here: what they have already).
    "app/(app)/profile/actions.ts#setMyDelegateAction": {
      args: [null, { delegateId: "" }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"ok":true', nonCandidate: '"ok":true', operator: '"code":"forbidden"', admin: '"code":"forbidden"' },
    },
    // Anyone signed in has tokens of their own.
    "app/(app)/profile/actions.ts#createPersonalTokenAction": {
      args: [null, { name: "Caller check" }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"secret":"pt_', nonCandidate: '"secret":"pt_', operator: '"secret":"pt_', admin: '"secret":"pt_' },
    },
    // Everyone's own notifications; another's is as unknown as none.
    "app/(app)/notifications/actions.ts#openNotificationAction": {
      args: [null, { notificationId: ZERO_UUID }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"code":"not_found"', nonCandidate: '"code":"not_found"', operator: '"code":"not_found"', admin: '"code":"not_found"' },
    },
    "app/(app)/notifications/actions.ts#markAllNotificationsReadAction": {
      args: [null, {}],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"ok":true', nonCandidate: '"ok":true', operator: '"ok":true', admin: '"ok":true' },
    },
    // Public: the link's token is the credential, and a made-up one is refused alike for everyone.
    "app/(auth)/a/[token]/actions.ts#followAnswerLinkAction": {
      args: [null, { token: "A".repeat(43) }],
      outcomes: Object.fromEntries(ROLES.map((role) => [role, "This link is not valid"])) as Record<Role, string>,
    },
    "app/(app)/profile/actions.ts#revokePersonalTokenAction": {
      args: [null, { keyId: ZERO_UUID }],
      outcomes: { anonymous: '"code":"unauthorized"', assignee: '"code":"not_found"', nonCandidate: '"code":"not_found"', operator: '"code":"not_found"', admin: '"code":"not_found"' },
    },
  };
}

async function pageFor(browser: Browser, role: Role): Promise<Page> {
  if (role === "anonymous") {
    const page = await (await browser.newContext()).newPage();
    await page.goto("/login");
    return page;
  }
  const user = { assignee: people.assignee, nonCandidate: people.otherAssignee, operator: people.operator, admin: people.admin }[role];
  return signedInPage(browser, user);
}

async function setAway(page: Page, baseURL: string, away: boolean) {
  const result = await callServerAction(page.request, {
    baseURL,
    path: "/inbox",
    actionId: serverActionId("app/(app)/actions.ts", "setMyAwayAction"),
    args: [null, { away: String(away) }],
  });
  expect(result.body).toContain('"ok":true');
}

test("every page, server action and route handler gives each role what the table says", async ({ browser, baseURL }) => {
  test.setTimeout(360_000);
  // A question for Sam while Priya is away: she is an assignee who is not among its candidates.
  const priya = await signedInPage(browser, people.otherAssignee);
  await setAway(priya, baseURL!, true);
  const operator = await signedInPage(browser, people.operator);
  const merchant = uniqueTitle("Authorised");
  await new RunsPage(operator).startReview({ title: uniqueTitle("Table"), merchant, amount: "75.00", incurredOn: "2026-11-15", assignee: people.assignee.name });
  const sam = await signedInPage(browser, people.assignee);
  await sam.goto("/inbox?view=assigned");
  const link = sam.getByTestId("inbox-row").filter({ hasText: merchant }).getByRole("link").first();
  const questionId = (await link.getAttribute("href"))!.split("/").at(-1)!;
  await setAway(priya, baseURL!, false);
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin/sla");
  const slotRow = admin.getByTestId("open-slot").filter({ hasText: merchant });
  const taskId = (await slotRow.getByRole("link", { name: "run" }).getAttribute("href"))!.split("/").at(-1)!;
  // Sam's id, from his row on Admin → People (the SLA page's assignee filter is typed now, not a list of everyone).
  await admin.goto(`/admin/people?q=${encodeURIComponent(people.assignee.email)}`);
  const samId = (await admin.getByTestId("person-row").getByRole("link", { name: people.assignee.name, exact: true }).getAttribute("href"))!.split("/").at(-1);
  // An agent key asks Sam over the API; each role makes a token of their own for the person's API.
  const makeKey = (page: Page, path: string, file: string, action: string) =>
    callFormAction(page.request, { baseURL: baseURL!, path, actionId: serverActionId(file, action), args: [null, { name: uniqueTitle("Caller table") }] });
  const agentKey = secretIn((await makeKey(admin, "/admin/api-keys", "app/(app)/admin/api-keys/actions.ts", "createAgentKeyAction")).body, "pk_");
  const tokenOf = async (page: Page) => secretIn((await makeKey(page, "/profile", "app/(app)/profile/actions.ts", "createPersonalTokenAction")).body, "pt_");
  const tokens = { assignee: await tokenOf(sam), nonCandidate: await tokenOf(priya), operator: await tokenOf(operator), admin: await tokenOf(admin) };
  const asked = await admin.request.post("/api/v1/asks", { headers: { authorization: `Bearer ${agentKey}` }, data: { to: people.assignee.email, title: uniqueTitle("Caller table ask") } });
  expect(asked.status()).toBe(201);
  const askedQuestionId = ((await asked.json()) as { url: string }).url.split("/").at(-1)!;
  const fixture: Fixture = { questionId, taskId, samId: samId!, askedQuestionId, tokens };
  for (const page of [priya, operator, sam, admin]) await page.context().close();

  const actions = actionTable(fixture);
  // A new action with no row here fails: nobody gets to forget its check.
  expect(listServerActions().filter((action) => !(action in actions))).toEqual([]);

  const manifestIds = new Map(listServerActions().map((action) => [action, serverActionId(...(action.split("#") as [string, string]))]));
  const failures: string[] = [];
  for (const role of ROLES) {
    const page = await pageFor(browser, role);
    for (const [path, outcomes] of Object.entries(pageTable(fixture))) {
      const response = await page.goto(path);
      const got: PageOutcome = new URL(page.url()).pathname === "/login" && path !== "/login" ? "sign-in" : (response!.status() as PageOutcome);
      if (got !== outcomes[role]) failures.push(`${role} ${path}: expected ${outcomes[role]}, got ${got}`);
    }
    await page.goto(role === "anonymous" ? "/login" : "/");
    for (const [path, outcomes] of Object.entries(routeTable(fixture))) {
      const status = await page.evaluate(async (url) => {
        const response = await fetch(url);
        await response.body?.cancel();
        return response.status;
      }, path);
      if (status !== outcomes[role]) failures.push(`${role} GET ${path}: expected ${outcomes[role]}, got ${status}`);
    }
    // The person's API: the role's own token, and a session alone (which is no token).
    for (const route of personalRouteTable(fixture)) {
      if (role !== "anonymous") {
        const bare = await callApi(page.request, route, undefined);
        if (bare !== 401) failures.push(`${role} ${route.method} ${route.path} with a session and no token: expected 401, got ${bare}`);
      }
      const status = await callApi(page.request, route, role === "anonymous" ? undefined : fixture.tokens[role]);
      if (status !== route.outcomes[role]) failures.push(`${role} ${route.method} ${route.path} with their token: expected ${route.outcomes[role]}, got ${status}`);
    }
    // Sign-out last: it ends this role's session.
    const ordered = Object.entries(actions).sort(([a], [b]) => Number(a.endsWith("#signOutAction")) - Number(b.endsWith("#signOutAction")));
    for (const [action, row] of ordered) {
      const result = await callFormAction(page.request, { baseURL: baseURL!, path: "/login", actionId: manifestIds.get(action)!, args: forRole(row.args, role) });
      const expected = row.outcomes[role];
      const ok =
        expected === "redirect" ? result.redirect !== null : result.redirect === null && result.body.includes(expected);
      if (!ok) failures.push(`${role} ${action}: expected ${expected}, got ${result.status} ${result.redirect ?? ""} ${result.body.slice(0, 200)}`);
    }
    await page.context().close();
  }
  expect(failures).toEqual([]);
});
