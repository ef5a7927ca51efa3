import { ParleyApiError } from "@parleyhq/client";
import { expect, people, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey, revokeAgentKey } from "./support/agent-keys";

/** What a promise rejects with. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

test("a revoked key and an unknown one are refused with ParleyApiError 401, at once", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const key = await makeAgentKey(browser);
  const parley = clientFor(baseURL!, key);
  // Live: it works.
  await expect(parley.listAsks({ limit: 1 })).resolves.toMatchObject({ data: expect.any(Array) });

  await revokeAgentKey(browser, key);
  const revoked = await rejectionOf(parley.ask({ to: people.assignee.email, title: uniqueTitle("After revoking") }));
  expect(revoked).toBeInstanceOf(ParleyApiError);
  expect(revoked).toMatchObject({ status: 401, code: "unauthorized", message: "This API key is unknown or was revoked." });

  const unknown = await rejectionOf(clientFor(baseURL!, "pk_this_key_was_never_made_by_anyone_0").getAsk("0193a000-0000-7000-8000-000000000001", { wait: 5 }));
  expect(unknown).toBeInstanceOf(ParleyApiError);
  expect(unknown).toMatchObject({ status: 401, code: "unauthorized" });
});
