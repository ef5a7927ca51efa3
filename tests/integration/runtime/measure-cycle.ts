/**
 * Measures one park → answer → resume → park cycle of the runtime's fixture workflow (FileTask) on the scripted
 * model, on PGlite and (when PARLEY_TEST_POSTGRES_URL is set) PostgreSQL. Prints numbers; asserts
 * nothing. Run: `npx tsx tests/integration/runtime/measure-cycle.ts [cycles]`.
 */
import { insertUsersIfAbsent } from "@/db/queries/users";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { tasks } from "@/lib/registry";
import { createRuntime } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS } from "@/tests/support/databases";
import { FileTask } from "./fixture-workflow";

const cycles = Number(process.argv[2] ?? 200);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

for (const kind of DATABASE_KINDS) {
  const database = await createTestDatabase(kind);
  const [sam] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam", roles: ["assignee"] }]);
  // A Clerk that never is satisfied: every answer parks it again.
  const model = createScriptedModel({ maxRecordedCalls: 0, respond: () => ({ toolCalls: [{ toolName: "ask", input: { question: "And then?" } }] }) });
  const runtime = createRuntime({ db: database.db, workflows: [FileTask], resolveModel: () => model });
  const [task] = await database.db.insert(tasks).values({ workflow: FileTask.name, title: "Measured", input: {}, createdBy: sam!.id }).returning();
  await runtime.start(FileTask, task!);
  await runtime.drain();

  const times: number[] = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    const started = performance.now();
    await runtime.deposit(FileTask, { taskId: task!.id, event: "Answered", payload: { text: `Answer number ${cycle}.` }, by: sam!.id });
    await runtime.drain();
    times.push(performance.now() - started);
  }
  const window = Math.min(20, Math.floor(cycles / 4));
  console.log(
    `${kind}: ${cycles} cycles (deposit + handler + model + park), median ${median(times).toFixed(2)} ms, ` +
      `first ${window} median ${median(times.slice(1, window + 1)).toFixed(2)} ms, last ${window} median ${median(times.slice(-window)).toFixed(2)} ms`,
  );
  await database.close();
}
