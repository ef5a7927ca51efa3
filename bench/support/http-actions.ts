import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";

/** A server action's id as the production build exposes it, read from its manifest as any client could. */
export function serverActionId(buildDir: string, filename: string, exportedName: string): string {
  const manifest = JSON.parse(readFileSync(path.join(buildDir, "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename: string; exportedName: string }>;
  };
  const entry = Object.entries(manifest.node).find(([, action]) => action.filename === filename && action.exportedName === exportedName);
  if (!entry) throw new Error(`the build in ${buildDir} has no server action ${exportedName} in ${filename}`);
  return entry[0];
}

/**
 * The body a browser posts when a `useActionState` form is submitted with JavaScript, as captured
 * from Chromium on the question page: the form's own fields (and the hidden `$ACTION_…` inputs React
 * renders for submissions without JavaScript) under the `_1_` prefix, then the root `[previous, "$K1"]`.
 */
export function formActionBody(actionId: string, previous: unknown, fields: Readonly<Record<string, string>>): { body: Buffer; contentType: string } {
  const boundary = `----WebKitFormBoundary${randomBytes(12).toString("base64url").slice(0, 16)}`;
  const parts: [string, string][] = [
    ["_1_$ACTION_REF_1", ""],
    ["_1_$ACTION_1:0", JSON.stringify({ id: actionId, bound: "$@1" })],
    ["_1_$ACTION_1:1", JSON.stringify([previous])],
    ["_1_$ACTION_KEY", `k${randomBytes(16).toString("hex")}`],
    ...Object.entries(fields).map(([name, value]): [string, string] => [`_1_${name}`, value]),
    ["0", JSON.stringify([previous, "$K1"])],
  ];
  const text = parts.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") + `--${boundary}--\r\n`;
  return { body: Buffer.from(text, "utf8"), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The router state a browser on `/questions/<id>` sends with an action (Next-Router-State-Tree). */
export function questionRouterState(questionId: string): string {
  const page = ["__PAGE__", {}, null, null, 0];
  const tree = ["", { children: ["(app)", { children: ["questions", { children: [["id", questionId, "d", null], { children: page }, null, null, 0] }, null, null, 0] }, null, null, 0] }, null, null, 16];
  return encodeURIComponent(JSON.stringify(tree));
}

/** The router state of the sign-in page. */
export function loginRouterState(): string {
  const tree = ["", { children: ["(auth)", { children: ["login", { children: ["__PAGE__", {}, null, null, 0] }, null, null, 0] }, null, null, 0] }, null, null, 16];
  return encodeURIComponent(JSON.stringify(tree));
}

/** One HTTP exchange: status, headers and body, read to the end. */
export interface Exchange {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The options of {@link postAction}. */
export interface ActionPost {
  path: string;
  actionId: string;
  routerState: string;
  cookie?: string;
  body: Buffer;
  contentType: string;
}

/**
 * POSTs a server action the way the browser does (same headers), over `agent`'s kept-alive sockets.
 * Like a browser, it sends again once when a kept-alive socket turns out to have been closed by the
 * server (its idle timeout) before any reply: the request never arrived.
 */
export async function postAction(agent: http.Agent, base: URL, options: ActionPost): Promise<Exchange> {
  const headers = {
    Accept: "text/x-component",
    "Accept-Language": "en-US,en;q=0.9",
    "Content-Type": options.contentType,
    "Content-Length": options.body.length,
    Origin: base.origin,
    Referer: `${base.origin}${options.path}`,
    "Next-Action": options.actionId,
    "Next-Router-State-Tree": options.routerState,
    ...(options.cookie ? { Cookie: options.cookie } : {}),
  };
  return postResending(agent, base, options.path, headers, options.body);
}

/** POSTs JSON to an API route with a bearer key (none: the caller is anonymous), resending as {@link postAction} does. */
export async function postJson(agent: http.Agent, base: URL, options: { path: string; key?: string; body: unknown }): Promise<Exchange> {
  const body = Buffer.from(JSON.stringify(options.body));
  const headers = {
    Accept: "application/json",
    "Content-Type": "application/json",
    "Content-Length": body.length,
    ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}),
  };
  return postResending(agent, base, options.path, headers, body);
}

/** One POST, sent again once when a kept-alive socket turns out to have been closed before any reply. */
async function postResending(agent: http.Agent, base: URL, path: string, headers: http.OutgoingHttpHeaders, body: Buffer): Promise<Exchange> {
  try {
    return await postOnce(agent, base, path, headers, body);
  } catch (error) {
    if (!(error instanceof StaleSocketError)) throw error;
    return postOnce(agent, base, path, headers, body);
  }
}

/** A kept-alive socket the server had closed: the request was not received. */
class StaleSocketError extends Error {}

function postOnce(agent: http.Agent, base: URL, path: string, headers: http.OutgoingHttpHeaders, body: Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: base.hostname, port: base.port, method: "POST", path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
      response.on("error", reject);
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === "ECONNRESET" || error.message === "socket hang up");
      reject(stale ? new StaleSocketError(error.message, { cause: error }) : error);
    });
    request.end(body);
  });
}

/**
 * Signs a person in through the sign-in page's own server action (next-auth credentials) and
 * returns their session cookie, as the browser would keep it.
 */
export async function signIn(agent: http.Agent, base: URL, actionId: string, email: string, password: string): Promise<string> {
  const { body, contentType } = formActionBody(actionId, { email: "" }, { callbackUrl: "/", email, password });
  const response = await postAction(agent, base, { path: "/login", actionId, routerState: loginRouterState(), body, contentType });
  const cookies = (response.headers["set-cookie"] ?? []).map((cookie) => cookie.split(";")[0]!);
  const session = cookies.find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!session) throw new Error(`signing in ${email} gave no session (HTTP ${response.status}): ${response.body.slice(0, 200)}`);
  return session;
}

/** What the answer action's reply says happened, read from its RSC payload. */
export type AnswerOutcome = "answered" | "unavailable" | "closed" | "refused" | "unknown";

/**
 * Reads the answer action's result out of the response: the RSC payload's root row (`0:`) names the
 * row holding the action's value (`"a":"$@<id>"`), a JSON line of its own.
 */
export function answerOutcome(body: string): { outcome: AnswerOutcome; message: string } {
  const rows = new Map<string, string>();
  for (const line of body.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) rows.set(line.slice(0, colon), line.slice(colon + 1));
  }
  try {
    const root = JSON.parse(rows.get("0") ?? "null") as { a?: string } | null;
    const reference = typeof root?.a === "string" && root.a.startsWith("$@") ? root.a.slice(2) : undefined;
    const value = JSON.parse(reference ? (rows.get(reference) ?? "null") : "null") as { outcome?: string; message?: string; fieldErrors?: unknown } | null;
    if (value && (value.outcome === "answered" || value.outcome === "unavailable" || value.outcome === "closed")) return { outcome: value.outcome, message: value.message ?? "" };
    if (value?.fieldErrors) return { outcome: "refused", message: "" };
  } catch {
    // Not the payload we know: reported as unknown below.
  }
  return { outcome: "unknown", message: body.slice(0, 200) };
}

/**
 * Reads the answer route's reply (`POST /api/v1/questions/{id}/answer`) as the action's outcomes:
 * 200 answered; 409 `already_answered`/`question_closed`/`conflict` unavailable, `attempts_exhausted`
 * closed; 422 refused; the message is the error's code and words.
 */
export function apiAnswerOutcome(status: number, body: string): { outcome: AnswerOutcome; message: string } {
  if (status === 200) return { outcome: "answered", message: "" };
  try {
    const { error } = JSON.parse(body) as { error?: { code?: string; message?: string } };
    const message = `${error?.code ?? "?"}: ${error?.message ?? ""}`;
    if (status === 409) return { outcome: error?.code === "attempts_exhausted" ? "closed" : "unavailable", message };
    if (status === 422) return { outcome: "refused", message };
    return { outcome: "unknown", message };
  } catch {
    return { outcome: "unknown", message: body.slice(0, 200) };
  }
}
