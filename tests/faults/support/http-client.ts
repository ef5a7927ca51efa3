import { readFileSync } from "node:fs";
import path from "node:path";
import { FAULT_BUILD_DIR, ROOT } from "./prerequisites";

/** A response, read to the end. */
export interface HttpResponse {
  status: number;
  headers: Headers;
  body: string;
}

/**
 * A client with a cookie jar and nothing else: no browser, no page, no script — what a hand-written
 * request (or an attacker's) looks like. Redirects are not followed.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  /** Sends a request with the jar's cookies and keeps the ones it sets. */
  async request(pathname: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<HttpResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has("cookie")) {
      headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    }
    const response = await fetch(new URL(pathname, this.baseUrl), {
      ...init,
      // A streamed body is sent in chunks, stating no length.
      ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
      headers,
      redirect: "manual",
      signal: init.signal ?? AbortSignal.timeout(init.timeoutMs ?? 30_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!name) continue;
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, body: await response.text() };
  }

  /** Signs in over HTTP through next-auth's credentials callback, as the sign-in form's POST would. */
  async signIn(email: string, password: string): Promise<void> {
    const csrf = await this.request("/api/auth/csrf");
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const response = await this.request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${this.baseUrl}/` }).toString(),
    });
    if (![...this.cookies.keys()].some((name) => name.endsWith("session-token"))) {
      throw new Error(`signing in as ${email} failed: ${response.status} ${response.headers.get("location") ?? ""}`);
    }
  }

  /** The same person in a second client (a second tab), sharing nothing after the copy. */
  copy(): HttpClient {
    const other = new HttpClient(this.baseUrl);
    for (const [name, value] of this.cookies) other.cookies.set(name, value);
    return other;
  }
}

interface ServerReferenceManifest {
  node: Record<string, { filename: string; exportedName: string }>;
}

/** Every server action the fault build exposes: `<file>#<export>` → the id a client posts it under. */
export function serverActionIds(): Map<string, string> {
  const manifest = JSON.parse(
    readFileSync(path.join(ROOT, FAULT_BUILD_DIR, "server", "server-reference-manifest.json"), "utf8"),
  ) as ServerReferenceManifest;
  const ids = new Map<string, string>();
  for (const [id, action] of Object.entries(manifest.node)) ids.set(`${action.filename}#${action.exportedName}`, id);
  return ids;
}

/** Every page and route handler of the fault build, as its app path (e.g. `/(app)/questions/[id]/page`). */
export function appPaths(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, FAULT_BUILD_DIR, "server", "app-paths-manifest.json"), "utf8")) as Record<string, string>;
  return Object.keys(manifest).sort();
}

/** What a server action call came back with. */
export interface ActionResponse extends HttpResponse {
  /** The action's return value, when the response carried one. */
  result: unknown;
  /** Where the action redirected to (`x-action-redirect`), if it did. */
  redirect: string | null;
}

/**
 * The action's return value in a Flight response: the root row (`0:`) names the row holding it
 * (`"a":"$@<id>"`); a plain value may also sit in the root itself.
 */
export function actionResultOf(body: string): unknown {
  const rows = new Map<string, string>();
  for (const line of body.split("\n")) {
    const match = /^([0-9a-f]+):(.*)$/.exec(line);
    if (match) rows.set(match[1]!, match[2]!);
  }
  const root = rows.get("0");
  if (!root) return undefined;
  let parsed: { a?: unknown };
  try {
    parsed = JSON.parse(root) as { a?: unknown };
  } catch {
    return undefined;
  }
  const reference = typeof parsed.a === "string" ? /^\$@([0-9a-f]+)$/.exec(parsed.a) : null;
  if (!reference) return parsed.a;
  const row = rows.get(reference[1]!);
  if (row === undefined) return undefined;
  try {
    return JSON.parse(row) as unknown;
  } catch {
    return row;
  }
}

/** How one argument of a server action travels: form fields (as React sends FormData), or any JSON value. */
export type ActionArgument = { form: Record<string, string | string[]> } | { json: unknown };

/**
 * Encodes arguments the way React's client does: with any FormData among them, a multipart body
 * whose FormData fields are `_<n>_`-prefixed and referenced as `$K<n>` from the root (`0`), sent
 * last; with none, the arguments as JSON text.
 */
export function encodeActionArguments(args: readonly ActionArgument[]): { body: FormData | string; contentType?: string } {
  if (!args.some((arg) => "form" in arg)) return { body: JSON.stringify(args.map((arg) => ("json" in arg ? arg.json : null))), contentType: "text/plain;charset=UTF-8" };
  const multipart = new FormData();
  let part = 0;
  const root = args.map((arg) => {
    if ("json" in arg) return arg.json;
    part += 1;
    for (const [key, value] of Object.entries(arg.form)) {
      for (const each of Array.isArray(value) ? value : [value]) multipart.append(`_${part.toString(16)}_${key}`, each);
    }
    return `$K${part.toString(16)}`;
  });
  multipart.append("0", JSON.stringify(root));
  return { body: multipart };
}

/**
 * Calls a server action over HTTP, skipping every page: `Next-Action` names it, and `Origin` is this
 * site's unless the caller says otherwise (`null` leaves it out).
 */
export async function callAction(
  client: HttpClient,
  options: {
    actionId: string;
    args?: readonly ActionArgument[];
    /** A body of the caller's own making instead of encoded arguments. */
    rawBody?: BodyInit;
    contentType?: string;
    path?: string;
    origin?: string | null;
    headers?: Record<string, string>;
    timeoutMs?: number;
  },
): Promise<ActionResponse> {
  const headers: Record<string, string> = { "next-action": options.actionId, accept: "text/x-component", ...options.headers };
  const origin = options.origin === undefined ? client.baseUrl : options.origin;
  if (origin !== null) headers.origin = origin;
  let body: BodyInit;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    if (options.contentType) headers["content-type"] = options.contentType;
  } else {
    const encoded = encodeActionArguments(options.args ?? []);
    body = encoded.body;
    if (encoded.contentType) headers["content-type"] = encoded.contentType;
  }
  const response = await client.request(options.path ?? "/", { method: "POST", headers, body, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
  return { ...response, result: actionResultOf(response.body), redirect: response.headers.get("x-action-redirect") };
}

/** The run a start form's action started (or had started), read from where it sends the caller: `/tasks/<id>?started=…`. */
export function startedTaskId(response: ActionResponse): string | undefined {
  return response.redirect?.match(/^\/tasks\/([0-9a-f-]{36})\?started=/)?.[1];
}
