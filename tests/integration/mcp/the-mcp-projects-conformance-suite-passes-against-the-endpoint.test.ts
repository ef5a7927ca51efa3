import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installTestTools, NODE_22, TOOLS_FOLDER } from "../../support/node-22";
import { type McpHttpEndpoint, startMcpHttpEndpoint } from "./mcp-http-endpoint";

const run = promisify(execFile);

/**
 * The MCP project's own conformance suite (`@modelcontextprotocol/conformance`, pinned with the
 * Node 22 it needs in tests/mcp-conformance, apart from Parley's dependencies), installed there on
 * first use.
 */
const CONFORMANCE = path.join(TOOLS_FOLDER, "node_modules/@modelcontextprotocol/conformance/dist/index.js");

/**
 * The server scenarios that apply to a server with tools only, stateless, behind an API key. The
 * others, and why not, are in the README (MCP section): they call fixture tools by name
 * (`test_simple_text`, `json_schema_2020_12_tool`…), or need resources, prompts, completions,
 * logging, sampling, elicitation or a session's SSE streams, none of which Parley serves.
 */
const SCENARIOS = ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** The checks a scenario's one run wrote under `folder` (in a folder of its own named after the scenario and the time). */
function checksOf(folder: string): Check[] {
  const runs = readdirSync(folder);
  expect(runs).toHaveLength(1);
  return JSON.parse(readFileSync(path.join(folder, runs[0]!, "checks.json"), "utf8")) as Check[];
}

describe("the MCP project's conformance suite against Parley's MCP endpoint", () => {
  let endpoint: McpHttpEndpoint | undefined;
  let results: string | undefined;

  beforeAll(async () => {
    await installTestTools([NODE_22, CONFORMANCE]);
    // The suite's client sends no headers of its own: the endpoint adds the key's, as a client configured with it does.
    endpoint = await startMcpHttpEndpoint({ addKey: true });
    results = mkdtempSync(path.join(tmpdir(), "parley-mcp-conformance-"));
  }, 360_000);

  afterAll(async () => {
    await endpoint?.close();
    if (results) rmSync(results, { recursive: true, force: true });
  });

  it.each(SCENARIOS)("%s passes every check", async (scenario) => {
    const output = path.join(results!, scenario);
    const { stdout } = await run(NODE_22, [CONFORMANCE, "server", "--url", endpoint!.url, "--scenario", scenario, "--output-dir", output], { timeout: 120_000 }).catch(
      (error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`The conformance suite failed ${scenario}:\n${error.stdout ?? ""}${error.stderr ?? ""}${error.message}`);
      },
    );
    const checks = checksOf(output);
    expect(checks.length, stdout).toBeGreaterThan(0);
    // Not a warning either: a scenario that only warns did not check what it is named after.
    expect(checks.filter((check) => check.status !== "SUCCESS" && check.status !== "INFO"), stdout).toEqual([]);
  });
});
