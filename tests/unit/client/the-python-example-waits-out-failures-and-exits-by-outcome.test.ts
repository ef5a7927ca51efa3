import { afterEach, describe, expect, it } from "vitest";
import { findPython, runPythonExample } from "@/tests/support/python";
import { answeredJson, apiError, ASK_ID, askJson, type FakeParley, json, startFakeParley } from "./fake-parley";

// examples/python/ask.py against a server of the test's own: it waits out what passes with the same
// Idempotency-Key, and says how the ask ended by its exit code — 0 answered, 2 nothing, 1 error.

const python = findPython();

let fake: FakeParley | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.skipIf(python.skip !== undefined)(`the Python example${python.skip ? ` (skipped: ${python.skip})` : ""}`, () => {
  it("waits out a 503 and a 429, then prints the answer as JSON and exits 0", async () => {
    let posts = 0;
    let gets = 0;
    fake = await startFakeParley((request, response) => {
      if (request.method === "POST") return (posts += 1) === 1 ? apiError(response, 503, "internal", "Down a moment.") : json(response, 201, askJson());
      gets += 1;
      if (gets === 1) return apiError(response, 429, "rate_limited", "Slow down.", { headers: { "retry-after": "1" } });
      json(response, 200, answeredJson({ decision: "approve", window_hours: 2 }));
    });
    const run = await runPythonExample(["--to", "sam@parley.test", "--title", "Deploy?", "--key", "py-test-1", "--poll", "5"], { url: fake.url, apiKey: "pk_test" });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ decision: "approve", window_hours: 2 });
    const [first, second, limited, after] = fake.received;
    expect([first!.headers["idempotency-key"], second!.headers["idempotency-key"]]).toEqual(["py-test-1", "py-test-1"]);
    expect(second!.body).toBe(first!.body);
    expect(JSON.parse(first!.body)).toEqual({ to: "sam@parley.test", title: "Deploy?" });
    expect(limited!.url).toBe(`/api/v1/asks/${ASK_ID}?wait=5`);
    expect(after!.at - limited!.at).toBeGreaterThanOrEqual(950);
    expect(first!.headers.authorization).toBe("Bearer pk_test");
  });

  it("prints the reason and exits 2 when nobody answers", async () => {
    fake = await startFakeParley((request, response) => json(response, 201, askJson({ status: "nothing", reason: "away" })));
    const run = await runPythonExample(["--to", "cy@parley.test", "--title", "Approve?"], { url: fake.url, apiKey: "pk_test" });
    expect(run.code).toBe(2);
    expect(run.stdout.trim()).toBe("away");
    expect(run.stderr).toContain("Nobody answered: away.");
  });

  it("prints the API's error message and exits 1 on a refusal, after one request", async () => {
    fake = await startFakeParley((request, response) => apiError(response, 422, "unknown_person", "There is nobody in Parley with the email nobody@parley.test.", { path: "to" }));
    const run = await runPythonExample(["--to", "nobody@parley.test", "--title", "Approve?"], { url: fake.url, apiKey: "pk_test" });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("There is nobody in Parley with the email nobody@parley.test.");
    expect(run.stderr).toContain("422 unknown_person at to");
    expect(fake.received).toHaveLength(1);
  });
});
