#!/usr/bin/env node
// `npm run test:container`: Parley as its container image and compose.yaml run it, tested from outside.
//   1. builds the image (Dockerfile) and checks compose refuses to start without its secrets;
//   2. brings compose.yaml up under a project name of its own, with secrets made here: PostgreSQL and two
//      Parley instances starting at once on one database (migrations taken one at a time, the first admin
//      added once), until both say /api/ready;
//   3. signs in as that admin and, through the pages' own forms posted as a browser without JavaScript
//      would, makes an agent key and adds a person, who sets their password through the invite link and
//      makes a personal token;
//   4. an agent asks that person over HTTP on instance 1, the person answers on instance 2, and the
//      agent reads the answer on instance 1;
//   5. a burst of asks and answers on both instances while instance 2 is stopped with SIGTERM
//      (`compose stop`): a long-poll it holds is answered at once, it exits 0, and afterwards every
//      acknowledged ask and answer is there, each ask made once and each question answered once, and
//      no job is left behind;
//   6. takes everything down (`compose down -v`), on failure too, and prints how long each step took.
// Without Docker it says so and exits 0, unless CI=true: then it fails.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const CI = process.env.CI === "true";
/** The image this test builds and runs; a tag of its own, so it replaces nothing of anyone's. */
const IMAGE = process.env.PARLEY_CONTAINER_TEST_IMAGE?.trim() || "parley-container-test:latest";
/** How many asks the burst makes (and answers). */
const BURST_ASKS = Number(process.env.PARLEY_CONTAINER_TEST_ASKS ?? 60);
/** How many clients ask and answer at once during the burst. */
const BURST_CLIENTS = 4;
if (!Number.isInteger(BURST_ASKS) || BURST_ASKS < 12) throw new Error(`PARLEY_CONTAINER_TEST_ASKS must be a whole number, at least 12 (it is "${process.env.PARLEY_CONTAINER_TEST_ASKS}").`);
const PROJECT = `parley-container-test-${randomBytes(4).toString("hex")}`;
const LOGS = mkdtempSync(path.join(tmpdir(), `${PROJECT}-`));

const started = Date.now();
const timings = [];
/** Runs `step`, noting how long it took. */
async function timed(name, step) {
  const at = Date.now();
  try {
    return await step();
  } finally {
    timings.push([name, (Date.now() - at) / 1000]);
    console.log(`container test: ${name} — ${((Date.now() - at) / 1000).toFixed(1)} s`);
  }
}

function fail(message) {
  throw new Error(message);
}

function check(condition, message) {
  if (!condition) fail(message);
}

/** Runs a command to its end; its output is kept, never inherited (a build's is long). */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.end(options.input ?? "");
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 600_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      if (options.log) writeFileSync(path.join(LOGS, options.log), `${stdout}\n${stderr}`);
      resolve({ status, stdout, stderr });
    });
  });
}

async function runOrFail(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.status !== 0) {
    fail(`${[command, ...args].join(" ")} exited ${result.status}:\n${(result.stdout + result.stderr).trim().split("\n").slice(-40).join("\n")}`);
  }
  return result;
}

/** `docker compose` (Compose 2), else `docker-compose` (Compose 1.29), else null. */
async function composeCommand() {
  const plugin = await run("docker", ["compose", "version"]).catch(() => null);
  if (plugin?.status === 0) return ["docker", "compose"];
  const standalone = await run("docker-compose", ["version"]).catch(() => null);
  if (standalone?.status === 0) return ["docker-compose"];
  return null;
}

/** A port free on loopback now, for compose to publish an instance on. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * fetch, given up after `ms`. Not AbortSignal.timeout: its timer does not keep Node running, and a
 * connection Docker's port proxy holds open to a container not listening yet does not either, so the
 * process would end in the middle of waiting.
 */
async function fetchWithin(url, init = {}, ms = 30_000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer from ${url} within ${ms / 1000} s`)), ms);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    return { response, body: await response.text() };
  } finally {
    clearTimeout(timer);
  }
}

/** An instance's `/api/ready` status, or null while nothing answers. */
async function readiness(url) {
  return (await fetchWithin(`${url}/api/ready`, {}, 5_000).catch(() => null))?.response.status ?? null;
}

/** Text from an attribute value as React writes it. */
function unescapeHtml(text) {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The forms of a page and the fields each would send as it stands: hidden inputs, values, ticked boxes. */
function formsOf(html) {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((match) => {
    const fields = [];
    for (const input of match[2].matchAll(/<input\b([^>]*?)\/?>/g)) {
      const attributes = Object.fromEntries([...input[1].matchAll(/([\w:$.-]+)="([^"]*)"/g)].map(([, name, value]) => [name, unescapeHtml(value)]));
      if (!attributes.name) continue;
      if ((attributes.type === "checkbox" || attributes.type === "radio") && !("checked" in attributes)) continue;
      fields.push([attributes.name, attributes.value ?? ""]);
    }
    return { method: /method="post"/i.test(match[1]) ? "POST" : "GET", fields };
  });
}

/** Someone at a browser with JavaScript off: a cookie jar, the pages' forms, no redirects followed. */
class Browser {
  cookies = new Map();

  constructor(baseUrl) {
    this.baseUrl = baseUrl;
  }

  async request(pathname, init = {}) {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const { response, body } = await fetchWithin(new URL(pathname, this.baseUrl), { ...init, headers, redirect: "manual" }, init.timeoutMs ?? 30_000);
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!name) continue;
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, body };
  }

  signedIn() {
    return [...this.cookies.keys()].some((name) => name.endsWith("session-token"));
  }

  /** Signs in as the sign-in page's form does, through next-auth's credentials callback. */
  async signIn(email, password) {
    const { csrfToken } = JSON.parse((await this.request("/api/auth/csrf")).body);
    const response = await this.request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password, csrfToken, callbackUrl: `${this.baseUrl}/` }).toString(),
    });
    check(this.signedIn(), `signing in as ${email} failed: ${response.status} ${response.headers.get("location") ?? ""}`);
  }

  /**
   * Opens `pathname`, fills in the POST form that has every field in `values` (the rest as the page
   * gave them) and submits it as a browser without JavaScript does: multipart, to the page itself.
   */
  async submitForm(pathname, values) {
    const page = await this.request(pathname);
    check(page.status === 200, `${pathname} answered ${page.status}`);
    const form = formsOf(page.body).find((each) => each.method === "POST" && Object.keys(values).every((name) => each.fields.some(([field]) => field === name)));
    check(form, `${pathname} has no form with the fields ${Object.keys(values).join(", ")}`);
    const body = new FormData();
    for (const [name, value] of form.fields) body.append(name, Object.hasOwn(values, name) ? values[name] : value);
    return this.request(pathname, { method: "POST", body, headers: { origin: this.baseUrl } });
  }
}

/** A secret shown once on a page, by its test id. */
function shownSecret(html, testId) {
  const match = new RegExp(`data-testid="${testId}"[^>]*>([^<]+)<`).exec(html);
  return match ? unescapeHtml(match[1]).trim() : null;
}

/** A JSON API call with a bearer key; network failures come back as `{ status: 0 }`. */
async function api(baseUrl, key, pathname, { method = "GET", body, headers = {}, timeoutMs = 30_000 } = {}) {
  try {
    const { response, body: text } = await fetchWithin(
      new URL(pathname, baseUrl),
      {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      },
      timeoutMs,
    );
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: response.status, json, text, headers: response.headers };
  } catch (error) {
    return { status: 0, json: null, text: String(error?.cause?.code ?? error), headers: new Headers() };
  }
}

const DECISION_SCHEMA = {
  type: "object",
  required: ["decision"],
  properties: { decision: { description: "Go ahead?", enum: ["approve", "reject"] } },
};

async function main() {
  // ---- Docker and Compose, or a plain reason why not
  const docker = await run("docker", ["info", "--format", "{{.ServerVersion}}"]).catch(() => null);
  const compose = docker?.status === 0 ? await composeCommand() : null;
  if (docker?.status !== 0 || !compose) {
    const why = docker?.status !== 0 ? "Docker is not available (`docker info` failed: is dockerd running?)" : "neither `docker compose` nor `docker-compose` is installed";
    if (CI) {
      console.error(`container test: FAILED: ${why}. CI=true, so the container test cannot be skipped.`);
      process.exit(1);
    }
    console.log(`container test: skipped: ${why}.`);
    return;
  }
  console.log(`container test: Docker ${docker.stdout.trim()}, ${compose.join(" ")}; project ${PROJECT}; logs in ${LOGS}`);

  const port1 = await freePort();
  const port2 = await freePort();
  const admin = { email: "admin@container-test.parley", password: randomBytes(12).toString("hex") };
  const secrets = {
    AUTH_SECRET: randomBytes(33).toString("base64"),
    POSTGRES_PASSWORD: randomBytes(24).toString("hex"),
    PARLEY_METRICS_TOKEN: randomBytes(24).toString("hex"),
    PARLEY_ADMIN_EMAIL: admin.email,
    PARLEY_ADMIN_PASSWORD: admin.password,
  };
  const composeEnv = { ...process.env, PARLEY_IMAGE: IMAGE, PARLEY_1_PORT: String(port1), PARLEY_2_PORT: String(port2), ...secrets };
  const composeArgs = (...args) => [...compose.slice(1), "-p", PROJECT, "-f", path.join(ROOT, "compose.yaml"), ...args];
  const composeRun = (args, options = {}) => runOrFail(compose[0], composeArgs(...args), { env: composeEnv, ...options });
  const sql = async (statement) =>
    (await composeRun(["exec", "-T", "-e", `PGPASSWORD=${secrets.POSTGRES_PASSWORD}`, "postgres", "psql", "-U", "parley", "-d", "parley", "-qAt", "-F", "\t", "-c", statement])).stdout.trim();
  const url1 = `http://127.0.0.1:${port1}`;
  const url2 = `http://127.0.0.1:${port2}`;

  let up = false;
  // Interrupted (Ctrl-C, or a CI that gives up): take the project down before going.
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) {
    process.on(signal, () => {
      console.error(`container test: ${signal}: taking ${PROJECT} down`);
      if (up) spawnSync(compose[0], composeArgs("down", "-v", "--remove-orphans", "-t", "5"), { cwd: ROOT, env: composeEnv, stdio: "ignore" });
      process.exit(code);
    });
  }
  try {
    await timed("compose refuses to start without its secrets", async () => {
      for (const missing of ["AUTH_SECRET", "POSTGRES_PASSWORD"]) {
        const env = { ...composeEnv };
        delete env[missing];
        const result = await run(compose[0], composeArgs("config"), { env });
        check(result.status !== 0 && (result.stdout + result.stderr).includes(missing), `compose config without ${missing} did not refuse: ${result.status} ${result.stderr.trim()}`);
      }
    });

    if (process.env.PARLEY_CONTAINER_TEST_SKIP_BUILD === "1") console.log(`container test: using the image ${IMAGE} as it is (PARLEY_CONTAINER_TEST_SKIP_BUILD=1)`);
    else await timed(`image built (${IMAGE})`, () => runOrFail("docker", ["build", "-t", IMAGE, "."], { log: "build.log", timeoutMs: 1_800_000 }));
    const size = await run("docker", ["image", "inspect", IMAGE, "--format", "{{.Size}}"]);
    console.log(`container test: image ${IMAGE}, ${(Number(size.stdout.trim()) / 1e6).toFixed(0)} MB`);

    await timed("compose up until both instances are ready", async () => {
      up = true;
      await composeRun(["up", "-d", "--no-build"], { log: "up.log" });
      for (const url of [url1, url2]) {
        const deadline = Date.now() + 180_000;
        for (;;) {
          const status = await readiness(url);
          if (status === 200) break;
          if (Date.now() > deadline) fail(`${url}/api/ready did not answer 200 within 180 s (last: ${status ?? "no answer"})`);
          await sleep(500);
        }
      }
    });

    await timed("both instances migrated one database together, and added the first admin once", async () => {
      const startedAt = [];
      for (const service of ["parley-1", "parley-2"]) {
        const id = (await composeRun(["ps", "-a", "-q", service])).stdout.trim();
        startedAt.push(new Date((await runOrFail("docker", ["inspect", "-f", "{{.State.StartedAt}}", id])).stdout.trim()).getTime());
      }
      console.log(`container test: the instances started ${Math.abs(startedAt[0] - startedAt[1])} ms apart`);
      const logs = (await composeRun(["logs", "--no-color", "parley-1", "parley-2"])).stdout;
      check((logs.match(/migrations applied/g) ?? []).length === 2, `both instances should say "migrations applied":\n${logs}`);
      check((logs.match(/added the first admin/g) ?? []).length === 1, `exactly one instance should add the first admin:\n${logs}`);
      check(!logs.includes(admin.password), "an instance printed the admin's password");
      const [migrations, distinct] = (await sql("select count(*), count(distinct hash) from drizzle.__drizzle_migrations")).split("\t").map(Number);
      check(migrations > 0 && migrations === distinct, `migrations recorded ${migrations} times for ${distinct} migrations`);
      check((await sql("select count(*) from users")) === "1", "the database should hold the first admin alone");
    });

    const people = await timed("an admin makes an agent key and invites a person, who sets a password and makes a token", async () => {
      const browser = new Browser(url1);
      await browser.signIn(admin.email, admin.password);
      const keyPage = await browser.submitForm("/admin/api-keys", { name: "Container test agent" });
      const agentKey = shownSecret(keyPage.body, "api-key-secret");
      check(agentKey?.startsWith("pk_"), `no agent key shown after making one (${keyPage.status})`);
      const email = "sam@container-test.parley";
      const addPage = await browser.submitForm("/admin/people", { name: "Sam Rivera", email });
      const invite = shownSecret(addPage.body, "invite-link");
      check(invite?.includes("/invite/"), `no invite link shown after adding a person (${addPage.status})`);

      // Sam, on the other instance: the invite link, then their own token on their profile.
      const sam = new Browser(url2);
      const password = randomBytes(12).toString("hex");
      const invitePath = new URL(invite).pathname;
      const set = await sam.submitForm(invitePath, { password, confirm: password });
      check(sam.signedIn(), `setting a password through the invite did not sign Sam in (${set.status})`);
      const tokenPage = await sam.submitForm("/profile", { name: "Container test terminal" });
      const token = shownSecret(tokenPage.body, "api-key-secret");
      check(token?.startsWith("pt_"), `no personal token shown after making one (${tokenPage.status})`);
      return { agentKey, sam: { email, token } };
    });

    await timed("an ask on instance 1 is answered on instance 2 and read back on instance 1", async () => {
      const asked = await api(url1, people.agentKey, "/api/v1/asks", {
        method: "POST",
        headers: { "idempotency-key": "container-test-first" },
        body: { to: people.sam.email, title: "Ship the container image?", due_in_seconds: 3600, response_schema: DECISION_SCHEMA },
      });
      check(asked.status === 201 && asked.json?.status === "open", `the ask was not made: ${asked.status} ${asked.text}`);
      const inbox = await api(url2, people.sam.token, "/api/v1/questions");
      check(inbox.status === 200 && inbox.text.includes(asked.json.question_id), `Sam's questions on instance 2 lack the ask: ${inbox.status} ${inbox.text.slice(0, 300)}`);
      const answered = await api(url2, people.sam.token, `/api/v1/questions/${asked.json.question_id}/answer`, { method: "POST", body: { answers: { decision: "approve" } } });
      check(answered.status === 200, `Sam's answer on instance 2 was not taken: ${answered.status} ${answered.text}`);
      const read = await api(url1, people.agentKey, `/api/v1/asks/${asked.json.id}?wait=10`, { timeoutMs: 20_000 });
      check(read.status === 200 && read.json?.status === "answered" && read.json.answer?.decision === "approve", `instance 1 does not see the answer: ${read.status} ${read.text}`);
    });

    await timed("the image's HEALTHCHECK says both instances are healthy", async () => {
      const deadline = Date.now() + 60_000;
      for (const service of ["parley-1", "parley-2"]) {
        const id = (await composeRun(["ps", "-a", "-q", service])).stdout.trim();
        for (;;) {
          const health = (await runOrFail("docker", ["inspect", "-f", "{{.State.Health.Status}}", id])).stdout.trim();
          if (health === "healthy") break;
          if (Date.now() > deadline) fail(`${service}'s HEALTHCHECK says ${health}, not healthy, 60 s on`);
          await sleep(1_000);
        }
      }
    });

    await timed(`a burst of ${BURST_ASKS} asks and answers while instance 2 is stopped with SIGTERM`, () => burst({ people, url1, url2, composeRun, sql }));
  } catch (error) {
    if (up) {
      const logs = await run(compose[0], composeArgs("logs", "--no-color", "--tail", "60"), { env: composeEnv, log: "compose.log" }).catch(() => null);
      if (logs) console.error(`container test: the containers' last lines (all in ${path.join(LOGS, "compose.log")}):\n${logs.stdout.trim().split("\n").slice(-80).join("\n")}`);
    }
    throw error;
  } finally {
    if (up) {
      await run(compose[0], composeArgs("logs", "--no-color"), { env: composeEnv, log: "compose.log" }).catch(() => null);
      await timed("compose down -v", () => run(compose[0], composeArgs("down", "-v", "--remove-orphans", "-t", "30"), { env: composeEnv, log: "down.log" }));
    }
  }
}

/**
 * Clients ask and answer on both instances; partway through, instance 2 is stopped with SIGTERM. A
 * request that finds an instance gone is sent again to the other (an ask with its Idempotency-Key, so
 * it is the same ask). Afterwards: every ask made once, every acknowledged answer recorded once.
 */
async function burst({ people, url1, url2, composeRun, sql }) {
  const urls = [url1, url2];
  let instance2Up = true;
  const asks = new Map(); // idempotency key → { id, questionId, decision, answered: "acknowledged" | "taken before" | undefined }
  /** Requests sent again to the other instance, by what the first one got: `refused` (nothing listening), `reset`, 503… */
  const retries = new Map();
  /** Asks whose question was not put yet when first answered (index → seconds until it was, and the ask's instance and time). */
  const notYetPut = new Map();

  /** Sends `call(url)` to instance `preferred`, else the other, until it is answered with something other than a dead instance's silence or a 503. */
  async function toAnyInstance(preferred, call) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const index = instance2Up ? (preferred + attempt) % 2 : 0;
      const result = await call(urls[index]);
      if (result.status !== 0 && result.status !== 502 && result.status !== 503) return { ...result, instance: index + 1 };
      const why = result.status === 0 ? result.text.replace(/^ECONN/, "").toLowerCase() : String(result.status);
      retries.set(why, (retries.get(why) ?? 0) + 1);
      await sleep(100 + attempt * 100);
    }
    fail("no instance answered a request in 20 tries");
  }

  // A long-poll held on instance 2 while it stops: answered at once, told to come back.
  const unanswered = await api(url1, people.agentKey, "/api/v1/asks", {
    method: "POST",
    headers: { "idempotency-key": "container-test-long-poll" },
    body: { to: people.sam.email, title: "Held by a long-poll while its instance stops" },
  });
  check(unanswered.status === 201, `the long-poll's ask was not made: ${unanswered.status} ${unanswered.text}`);

  let next = 0;
  let stopping = null;
  let stopped = false;
  let afterStop = 0;
  let longPoll = null;
  const stopAfter = Math.floor(BURST_ASKS / 3);
  async function client(number) {
    for (;;) {
      // At least BURST_ASKS, and the load goes on until instance 2 is down and some more were made without it.
      if (next >= BURST_ASKS && stopped && afterStop >= BURST_CLIENTS * 3) return;
      if (next >= BURST_ASKS * 20) return;
      const index = next++;
      if (stopped) afterStop++;
      const key = `container-test-burst-${index}`;
      const decision = index % 2 === 0 ? "approve" : "reject";
      const askFrom = Date.now();
      const asked = await toAnyInstance(index % 2, (url) =>
        api(url, people.agentKey, "/api/v1/asks", {
          method: "POST",
          headers: { "idempotency-key": key },
          body: { to: people.sam.email, title: `Burst ask ${index} (client ${number})`, due_in_seconds: 3600, response_schema: DECISION_SCHEMA },
        }),
      );
      check(asked.status === 201 || asked.status === 200, `ask ${index}: ${asked.status} ${asked.text}`);
      const entry = { id: asked.json.id, questionId: asked.json.question_id, decision, answered: undefined, askedOn: asked.instance, askSeconds: (Date.now() - askFrom) / 1000 };
      asks.set(key, entry);
      if (asks.size === stopAfter && !stopping) {
        longPoll = (async () => {
          const at = Date.now();
          const held = await api(url2, people.agentKey, `/api/v1/asks/${unanswered.json.id}?wait=50`, { timeoutMs: 60_000 });
          return { ...held, seconds: (Date.now() - at) / 1000 };
        })();
        await sleep(300);
        stopping = (async () => {
          const at = Date.now();
          await composeRun(["stop", "-t", "30", "parley-2"]);
          instance2Up = false;
          stopped = true;
          return (Date.now() - at) / 1000;
        })();
      }
      // An ask acknowledged by a stopping instance may not have its question put yet (lib/asks/asks.ts: a worker
      // puts it); the person cannot answer it until it is there, so they try again, as they would once it shows.
      const answerFrom = Date.now();
      let answered;
      for (;;) {
        answered = await toAnyInstance((index + 1) % 2, (url) =>
          api(url, people.sam.token, `/api/v1/questions/${entry.questionId}/answer`, { method: "POST", body: { answers: { decision } } }),
        );
        if (answered.status !== 404 || Date.now() - answerFrom > 60_000) break;
        // What the jobs were doing when it was not there yet, to say why.
        const jobs = notYetPut.get(index)?.jobs ?? (await sql("select kind, status, locked_by, locked_until > now() from jobs where status <> 'done' order by run_at")).replaceAll("\t", " ").replaceAll("\n", ", ");
        notYetPut.set(index, { seconds: (Date.now() - answerFrom) / 1000, askedOn: entry.askedOn, askSeconds: entry.askSeconds, jobs });
        await sleep(250);
      }
      if (answered.status === 200) entry.answered = "acknowledged";
      // Sent again after an instance went away mid-request: the first one was taken after all.
      else if (answered.status === 409) entry.answered = "taken before";
      else fail(`answer to ask ${index}: ${answered.status} ${answered.text}`);
    }
  }
  await Promise.all(Array.from({ length: BURST_CLIENTS }, (_, number) => client(number)));
  check(stopping, "instance 2 was never stopped: too few asks in the burst");
  const stopSeconds = await stopping;
  const held = await longPoll;

  // Instance 2 stopped as it should: the long-poll answered at once and sent elsewhere, the process exited 0.
  check(held.status === 200 && held.json?.status === "open", `the long-poll held on instance 2 was not answered with the open ask: ${held.status} ${held.text}`);
  check(held.seconds < 15, `the long-poll held on instance 2 took ${held.seconds} s to be answered`);
  check(held.headers.get("retry-after") === "1", `the long-poll's answer should say Retry-After: 1 (it said ${held.headers.get("retry-after")})`);
  const id2 = (await composeRun(["ps", "-a", "-q", "parley-2"])).stdout.trim();
  const exitCode = (await runOrFail("docker", ["inspect", "-f", "{{.State.ExitCode}}", id2])).stdout.trim();
  const logs2 = (await composeRun(["logs", "--no-color", "parley-2"])).stdout;
  check(exitCode === "0" && logs2.includes("Parley: SIGTERM: stopping"), `instance 2 did not stop gracefully (exit ${exitCode}):\n${logs2.split("\n").slice(-15).join("\n")}`);

  // Every acknowledged ask is there once, and every acknowledged answer is its answer, read from instance 1.
  const made = next;
  check(asks.size === made, `${asks.size} of ${made} asks acknowledged`);
  for (const [key, entry] of asks) {
    const read = await api(url1, people.agentKey, `/api/v1/asks/${entry.id}`);
    check(read.status === 200 && read.json?.status === "answered", `${key}: ${read.status} ${read.text}`);
    check(read.json.answer?.decision === entry.decision, `${key}: answered ${JSON.stringify(read.json.answer)}, acknowledged ${entry.decision}`);
  }
  const [rows, keys] = (await sql("select count(*), count(distinct idempotency_key) from api_asks where idempotency_key like 'container-test-burst-%'")).split("\t").map(Number);
  check(rows === made && keys === made, `the database holds ${rows} burst asks under ${keys} keys, for ${made} asked`);
  const twice = await sql("select question_id from audit_events where action = 'answered' group by question_id having count(*) > 1");
  check(twice === "", `questions answered more than once: ${twice}`);
  const answeredOnce = Number(await sql("select count(distinct question_id) from audit_events where action = 'answered'"));
  check(answeredOnce === made + 1, `${answeredOnce} questions answered, for ${made + 1} answers acknowledged`);

  // The runs the answers resumed finish, on instance 1 alone now, with no job left queued, held or failed.
  const deadline = Date.now() + 60_000;
  let jobs = "";
  for (;;) {
    jobs = await sql("select status, count(*) from jobs where status <> 'done' group by status order by status");
    if (jobs === "") break;
    if (Date.now() > deadline) fail(`jobs left after 60 s: ${jobs.replaceAll("\n", ", ")}`);
    await sleep(500);
  }
  const runs = (await sql("select status, count(*) from api_asks group by status order by status")).replaceAll("\t", ": ").replaceAll("\n", ", ");

  // Instance 2 comes back and reads the same.
  await composeRun(["start", "parley-2"]);
  const back = Date.now() + 120_000;
  while ((await readiness(url2)) !== 200) {
    if (Date.now() > back) fail("instance 2 did not come back ready within 120 s");
    await sleep(500);
  }
  const [sample] = asks.values();
  const reread = await api(url2, people.agentKey, `/api/v1/asks/${sample.id}`);
  check(reread.json?.answer?.decision === sample.decision, `instance 2, back, reads ${reread.status} ${reread.text}`);

  const taken = [...asks.values()].filter((entry) => entry.answered === "taken before").length;
  const resent = [...retries.values()].reduce((sum, count) => sum + count, 0);
  const said = [
    `${made} asks made once each and answered once each (${made - taken} acknowledged at once, ${taken} sent again after an instance went away and found taken)`,
    `${resent} requests sent again to the other instance (${[...retries].map(([why, count]) => `${count} ${why}`).join(", ") || "none"})`,
    ...[...notYetPut].map(([index, each]) => `ask ${index}, acknowledged by instance ${each.askedOn} in ${each.askSeconds.toFixed(1)} s, could be answered ${each.seconds.toFixed(1)} s later, once its question was put (jobs not done when first tried: ${each.jobs || "none"})`),
    `instance 2 stopped in ${stopSeconds.toFixed(1)} s (${afterStop} asks made after), exit 0, its long-poll answered in ${held.seconds.toFixed(1)} s`,
    `asks' runs ${runs}; no job left`,
  ];
  console.log(`container test: ${said.join("; ")}.`);
}

// Node ends a process whose promises wait on nothing it counts as running: never take that for a pass.
let finished = false;
process.on("exit", (code) => {
  if (finished || code !== 0) return;
  console.error("container test: FAILED: it ended before finishing (a wait that held nothing open).");
  process.exitCode = 1;
});

main().then(
  () => {
    finished = true;
    const total = (Date.now() - started) / 1000;
    console.log(`container test: passed in ${total.toFixed(0)} s (${timings.map(([name, seconds]) => `${name}: ${seconds.toFixed(1)} s`).join("; ")})`);
  },
  (error) => {
    console.error(`container test: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`container test: logs in ${LOGS}`);
    process.exit(1);
  },
);
