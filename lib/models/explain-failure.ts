import type { ModelEndpoint, ModelKind } from "./resolve-model";

const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ECONNRESET|Cannot connect to API|fetch failed|bad port|getaddrinfo|socket hang up|other side closed|certificate|self[- ]signed/i;
const TIMED_OUT = /timed? ?out|TimeoutError|did not answer within|ETIMEDOUT|504/i;
const REFUSED_KEY = /\b401\b|\b403\b|unauthori[sz]ed|invalid[ _-]?api[ _-]?key|incorrect api key|authentication|permission denied|forbidden/i;
const NO_SUCH_MODEL = /\b404\b|model\b.*\bnot (be )?found|does not exist|unknown model|no such model/i;
const RATE_LIMITED = /\b429\b|rate[ _-]?limit|too many requests|quota/i;

/**
 * What to check when a model call failed, in a sentence an admin can act on — the setting to look at
 * and its value — or null when the cause says nothing we can advise on (or no real model is configured:
 * the scripted model reaches nothing).
 */
export function explainModelFailure(cause: string, model: { kind: ModelKind; endpoint?: ModelEndpoint }): string | null {
  const endpoint = model.endpoint;
  if (model.kind === "scripted" || !endpoint) return null;
  const where = endpoint.urlSetting === "PARLEY_MODEL_BASE_URL" ? `PARLEY_MODEL_BASE_URL (${endpoint.url})` : `the provider's address (${endpoint.url})`;
  const keys = endpoint.keySettings.join(" or ");
  if (UNREACHABLE.test(cause)) {
    return `Parley could not reach the model at ${endpoint.url}: check ${where}, and that the model server is running and reachable from Parley's machine.`;
  }
  if (TIMED_OUT.test(cause)) {
    return `The model at ${endpoint.url} did not answer in time: check that it is not overloaded, and ${where}; a slow self-hosted model may need a longer PARLEY_TURN_TIMEOUT_MS.`;
  }
  if (REFUSED_KEY.test(cause)) return `The model at ${endpoint.url} refused Parley's API key: check ${keys}.`;
  if (NO_SUCH_MODEL.test(cause)) return `The model at ${endpoint.url} has no model called “${endpoint.modelId}”: check PARLEY_MODEL, and ${where}.`;
  if (RATE_LIMITED.test(cause)) return `The model at ${endpoint.url} is limiting Parley's calls: retry later, or raise the account's limits.`;
  return null;
}
