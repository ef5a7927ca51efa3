import { readFileSync } from "node:fs";
import path from "node:path";
import { tmpdir } from "node:os";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { findMypy, findPython, PYTHON_PACKAGE, runProcess } from "@/tests/support/python";

// packages/python (parleyhq-client, import parley_client), the standard library only: its own unittest
// suite (retries against an http.server fake, the command line, verify_webhook), mypy --strict over it
// and examples/python for Python 3.9, and the webhook vectors its tests verify still being what standardwebhooks signs.

const python = findPython();
const mypy = findMypy();

describe("the Python package", () => {
  it.skipIf(python.skip !== undefined)(`passes its unittest suite${python.skip ? ` (skipped: ${python.skip})` : ""}`, async () => {
    const run = await runProcess("python3", ["-m", "unittest", "discover", "-s", path.join(PYTHON_PACKAGE, "tests"), "-v"], { timeoutMs: 50_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Ran [1-9]\d* tests/);
    expect(run.stderr).toMatch(/\nOK\n?$/);
    expect(run.stderr).not.toContain("skipped");
  }, 60_000);

  it.skipIf(mypy.skip !== undefined)(`passes mypy --strict for Python 3.9, its tests and examples/python included${mypy.skip ? ` (skipped: ${mypy.skip})` : ""}`, async () => {
    const [command, ...prefix] = mypy.command!;
    const run = await runProcess(command!, [...prefix, "--strict", "--python-version", "3.9", "--cache-dir", path.join(tmpdir(), "parley-python-mypy-cache"), "src", "tests", path.join("..", "..", "examples", "python")], {
      cwd: PYTHON_PACKAGE,
      env: { MYPYPATH: "src" },
      timeoutMs: 110_000,
    });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain("Success: no issues found");
  }, 120_000);

  it("its README quotes the examples as they are", () => {
    const readme = readFileSync(path.join(PYTHON_PACKAGE, "README.md"), "utf8");
    for (const example of ["deploy_approval.py", "receive_webhooks.py"]) {
      const code = readFileSync(path.join(PYTHON_PACKAGE, "..", "..", "examples", "python", example), "utf8");
      expect(code.split("\n").length, example).toBeLessThanOrEqual(31);
      expect(readme, `packages/python/README.md quotes examples/python/${example}`).toContain("```python\n" + code + "```");
    }
  });

  it("verifies webhooks signed by standardwebhooks: the vectors its tests use are what that package signs", () => {
    const file = JSON.parse(readFileSync(path.join(PYTHON_PACKAGE, "tests", "webhook_vectors.json"), "utf8")) as {
      vectors: { secret: string; id: string; timestamp: string; body: string; signature: string }[];
      signed_with_previous_secret: { secret: string; id: string; timestamp: string; body: string; signature: string };
    };
    const vectors = [...file.vectors, file.signed_with_previous_secret];
    expect(vectors.length).toBeGreaterThanOrEqual(6);
    for (const vector of vectors) {
      expect(new Webhook(vector.secret).sign(vector.id, new Date(Number(vector.timestamp) * 1000), vector.body)).toBe(vector.signature);
    }
  });
});
