import type { ClosedWithNothingView, MeView, QuestionDetailView, QuestionPageView, QuestionSummaryView } from "@/lib/questions-api/api-schemas";
import type { TerminalConfig } from "./terminal-config";

// Types only from the API's schemas: the command loads no zod, no database, no Next.js.
export type { MeView, QuestionDetailView, QuestionSummaryView };

/** The error body every refusal of the API comes in (lib/server/api-request.ts). */
export interface ApiErrorDetail {
  code: string;
  message: string;
  path?: string;
  [detail: string]: unknown;
}

/** A request the server refused or could not answer, with its status and the API's error. */
export class PersonApiError extends Error {
  /** The HTTP status; 0 when the server could not be reached or did not answer in time. */
  readonly status: number;
  /** The API's stable code (`unauthorized`, `not_found`…), or `unreachable` / `bad_response`. */
  readonly code: string;
  readonly detail: ApiErrorDetail;

  constructor(status: number, detail: ApiErrorDetail) {
    super(detail.message);
    this.name = "PersonApiError";
    this.status = status;
    this.code = detail.code;
    this.detail = detail;
  }
}

/** What answering came back with: taken, or the API's refusal as it sent it (judged by the caller). */
export type AnswerResponse = { ok: true; value: unknown } | { ok: false; status: number; error: ApiErrorDetail };

/** The person's side of a Parley server's API, as the `parley` command calls it with a personal token. */
export interface PersonApiClient {
  /** Who the token belongs to. */
  me(): Promise<MeView>;
  /** Every open question of the person, soonest due first (page after page). */
  questions(): Promise<QuestionSummaryView[]>;
  /** One of the person's questions, by its id or the id of the API ask that put it. */
  question(id: string): Promise<QuestionDetailView>;
  /** Sends each field's text as typed; a refusal comes back as data, for the terminal to show. */
  answer(id: string, answers: Readonly<Record<string, string>>): Promise<AnswerResponse>;
  /** Closes the question with nothing, reason non-interactive (`parley answer <id> --nothing`). */
  nothing(id: string): Promise<ClosedWithNothingView>;
  /** Declines the question, with an optional note for whoever asked (`parley answer <id> --decline [--note TEXT]`). */
  decline(id: string, note: string | null): Promise<ClosedWithNothingView>;
}

/** How long one request may take before the command gives up on it. */
const REQUEST_TIMEOUT_MS = 30_000;

/** The most pages `questions()` follows: a runaway cursor must not keep the command going for ever. */
const MAX_PAGES = 1_000;

/** A client for the server and token given; `fetch` may be replaced in tests. */
export function createPersonApiClient(connection: TerminalConfig, options: { fetch?: typeof fetch; timeoutMs?: number } = {}): PersonApiClient {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  async function request(method: "GET" | "POST", route: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const url = `${connection.url}/api/v1${route}`;
    let response: Response;
    try {
      response = await send(url, {
        method,
        headers: { authorization: `Bearer ${connection.token}`, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (error) {
      const why = error instanceof Error && error.name === "TimeoutError" ? `no answer in ${timeoutMs / 1000} s` : describeFailure(error);
      throw new PersonApiError(0, { code: "unreachable", message: `Could not reach Parley at ${connection.url} (${why}).` });
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // Not the API: a proxy's page, a server of something else at that address.
      throw new PersonApiError(response.status, { code: "bad_response", message: `${connection.url} answered ${response.status} with something that is not Parley's API: is it the right address?` });
    }
    return { status: response.status, json };
  }

  function errorOf(status: number, json: unknown): ApiErrorDetail {
    const error = (json as { error?: unknown } | null)?.error;
    if (error && typeof error === "object" && typeof (error as ApiErrorDetail).code === "string" && typeof (error as ApiErrorDetail).message === "string") return error as ApiErrorDetail;
    return { code: "bad_response", message: `${connection.url} answered ${status} with something that is not Parley's API.` };
  }

  async function call<T>(method: "GET" | "POST", route: string, body?: unknown): Promise<T> {
    const { status, json } = await request(method, route, body);
    if (status >= 200 && status < 300) return json as T;
    throw new PersonApiError(status, errorOf(status, json));
  }

  const path = (id: string) => `/questions/${encodeURIComponent(id)}`;

  return {
    me: () => call<MeView>("GET", "/me"),
    async questions() {
      const all: QuestionSummaryView[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query: string = `?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const result: QuestionPageView = await call<QuestionPageView>("GET", `/questions${query}`);
        all.push(...result.data);
        cursor = result.next_cursor;
        if (!cursor) break;
      }
      return all;
    },
    question: (id) => call<QuestionDetailView>("GET", path(id)),
    async answer(id, answers) {
      const { status, json } = await request("POST", `${path(id)}/answer`, { answers });
      if (status === 200) return { ok: true, value: (json as { value?: unknown }).value };
      // Refusals the terminal shows (422, 409, 404, 400) are data; being refused entry is not.
      if (status === 401 || status === 429 || status >= 500) throw new PersonApiError(status, errorOf(status, json));
      return { ok: false, status, error: errorOf(status, json) };
    },
    nothing: (id) => call<ClosedWithNothingView>("POST", `${path(id)}/nothing`, { reason: "non-interactive" }),
    decline: (id, note) => call<ClosedWithNothingView>("POST", `${path(id)}/nothing`, { reason: "declined", ...(note === null ? {} : { note }) }),
  };
}

/** Why a request failed before any answer came: the system's own words (ECONNREFUSED, ENOTFOUND…). */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
