import { headers } from "next/headers";
import { requestIdFrom, withLogContext } from "@/lib/log";

/**
 * Runs a server action's work as one request of the log: every line it writes carries a request id
 * — the `X-Request-Id` the POST came with when that is sane (a proxy in front may set one), else a
 * new one. Called outside a request (a test calling the action), the id is new.
 */
export async function asLoggedAction<T>(body: () => Promise<T>): Promise<T> {
  let incoming: Headers | undefined;
  try {
    incoming = await headers();
  } catch {
    // Not in a request.
  }
  return withLogContext({ requestId: requestIdFrom(incoming) }, body);
}
