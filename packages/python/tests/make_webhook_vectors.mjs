// Makes webhook_vectors.json: webhooks signed by the `standardwebhooks` npm package (the reference
// implementation), for the Python tests to verify — a signature made by another hand than the one
// checking it. Run from the repository (it needs node_modules): node packages/python/tests/make_webhook_vectors.mjs
// The vitest test the-python-package-… checks that this file still matches what standardwebhooks signs.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
const previousSecret = `whsec_${randomBytes(24).toString("base64")}`;
const at = 1767225600; // 2026-01-01T00:00:00Z

const ask = {
  id: "ask_01JZ8Y2V7Q3M4N5P6R7S8T9V0W",
  title: "Déployer 4.2 maintenant ?",
  body: null,
  context: { release: "4.2", canary: true },
  to: "sam@parley.test",
  url: "http://127.0.0.1:3000/questions/q_1",
  question_id: "q_1",
  due_at: null,
  created_at: "2025-12-31T23:58:00.000Z",
  metadata: { job: "deploy-4.2", step: 3 },
  attempts: { allowed: 3, refused: 0 },
  waited_seconds: 120,
};
const answered = { ...ask, status: "answered", answer: { decision: "approve", window_hours: 2 }, answered_by: { email: "sam@parley.test", name: "Sam" }, answered_at: "2026-01-01T00:00:00.000Z", reason: null, declined_by: null, note: null };
const nothing = { ...ask, status: "nothing", answer: null, answered_by: null, answered_at: "2026-01-01T00:00:00.000Z", reason: "declined", declined_by: { email: "sam@parley.test", name: "Sam" }, note: "Pas aujourd’hui — gel des déploiements ✋" };
const opened = { id: "q_1", url: "http://127.0.0.1:3000/questions/q_1", question: "Deploy 4.2 now?", asked_by: "deploy bot", subject: "Release 4.2", recipients: [{ user_id: "u_1", name: "Sam", email: "sam@parley.test" }], opened_at: "2026-01-01T00:00:00.000Z", due_at: null };

const messages = [
  { name: "ask.answered", id: "msg_answered_1", type: "ask.answered", data: answered },
  { name: "ask.nothing, with non-ASCII text", id: "msg_nothing_1", type: "ask.nothing", data: nothing },
  { name: "question.opened", id: "msg_opened_1", type: "question.opened", data: opened },
  { name: "question.reminded", id: "msg_reminded_1", type: "question.reminded", data: { ...opened, reminded_at: "2026-01-01T00:00:00.000Z" } },
  { name: "a type this version does not know", id: "msg_future_1", type: "ask.snoozed", data: { id: ask.id } },
];

const vectors = messages.map(({ name, id, type, data }) => {
  const body = JSON.stringify({ type, timestamp: "2026-01-01T00:00:00.000Z", data });
  return { name, secret, id, timestamp: String(at), body, signature: new Webhook(secret).sign(id, new Date(at * 1000), body) };
});
const rotated = vectors[0];
const output = {
  note: "Signed by the standardwebhooks npm package (make_webhook_vectors.mjs). Verify with now = timestamp.",
  secret,
  previous_secret: previousSecret,
  vectors,
  // The same message signed with the previous secret only: a receiver given both secrets accepts it.
  signed_with_previous_secret: { ...rotated, secret: previousSecret, signature: new Webhook(previousSecret).sign(rotated.id, new Date(at * 1000), rotated.body) },
};
writeFileSync(new URL("./webhook_vectors.json", import.meta.url), `${JSON.stringify(output, null, 2)}\n`);
