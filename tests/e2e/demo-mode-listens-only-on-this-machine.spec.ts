import { networkInterfaces } from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { startOwnServer } from "./support/own-server";

// `npm start` itself (scripts/start.mjs), in demo mode, on a port of its own.
const PORT = Number(process.env.PARLEY_E2E_PORT ?? "3100") + 9;

/** An address of this machine other than loopback, if it has one. */
function outsideAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === "IPv4" && !entry.internal)?.address;
}

test("npm start in demo mode answers on loopback only, and says so and why", async () => {
  test.setTimeout(180_000);
  const outside = outsideAddress();
  test.skip(!outside, "this machine has no address but loopback to try from");
  const server = await startOwnServer({ name: "listen", port: PORT, command: [path.resolve(import.meta.dirname, "../../scripts/start.mjs")] });
  try {
    expect(server.output()).toMatch(new RegExp(`listening on http://127\\.0\\.0\\.1:${PORT} only \\(this machine\\), because the sign-in page shows the demo passwords`));
    expect((await fetch(`http://127.0.0.1:${PORT}/login`)).status).toBe(200);
    await expect(fetch(`http://${outside}:${PORT}/login`)).rejects.toThrow();
  } finally {
    await server.stop();
  }
});
