import { AppError, isRetryableCode } from "@/lib/errors";
import { isUnsupportedSchemaError, specFromSchema } from "@/lib/questions";
import { LOOP_ANSWER_EVENT, LOOP_PARK_STATE } from "./define-agent";
import { escalationProblem } from "./escalation";
import { isAnswerEvent, questionnaireOf } from "./person";
import type { Agent, AnyWorkflow } from "./types";

/**
 * A job failed because its workflow is wrong, not because something outside was away: an answer
 * its event's schema refuses, a state it does not declare, a handler missing. `what` says what is
 * wrong in plain words (the run page puts it after "the workflow <name> is wrong:"). A handler may
 * throw one of its own. The run is recorded `failed`, not `retryable`.
 */
export function definitionError(what: string): AppError {
  return new AppError("definition_error", what);
}

/** What a run stopped by a definition error tells people, on its page and when someone tries to retry it. */
export function definitionFailureMessage(workflow: string, cause: string): string {
  const what = cause.trim().replace(/[.\s]+$/, "");
  return `This run stopped because the workflow ${workflow} is wrong: ${what}. Fix the workflow and start a new run; retrying this one would fail the same way.`;
}

/**
 * Why a run stopped because its workflow is wrong, read from its events: the cause of its last
 * failure when that failure was recorded not retryable with a definition code; undefined for a run
 * that failed on a model error (retryable) or ended in its own error state (no such code).
 */
export function definitionFailureIn(events: readonly { kind: string; data?: Record<string, unknown> | null }[]): { cause: string } | undefined {
  const last = events.findLast((event) => event.kind === "failed");
  const data = last?.data ?? {};
  if (!last || data.retryable === true || typeof data.code !== "string" || isRetryableCode(data.code)) return undefined;
  const cause = typeof data.cause === "string" ? data.cause : typeof data.message === "string" ? data.message : "the run failed";
  return { cause };
}

/**
 * Whether a job's error means the workflow is wrong (never retried) rather than a passing failure:
 * its code is of the `definition` kind (lib/errors.ts) — whichever copy of the error class threw it.
 */
export function isDefinitionFailure(error: unknown): boolean {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && !isRetryableCode(code);
}

/** The payload the runtime deposits for an answer to an agent's ask, to check a loop's event against. */
const SAMPLE_AGENT_ANSWER = { text: "An answer.", questionId: "0190a4b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b" };

/** The workflow an agent loops in, or undefined (no loop, or one that cannot be resolved yet). */
function loopOf(agent: Agent): { name?: unknown } | undefined {
  try {
    return agent.loop?.() as { name?: unknown } | undefined;
  } catch {
    return undefined;
  }
}

/** Whether `loop` is `workflow`: the same object, or one of its name (a bundler may load a module twice). */
function isLoopOf(loop: { name?: unknown } | undefined, workflow: AnyWorkflow): boolean {
  return loop !== undefined && (loop === (workflow as unknown) || loop.name === workflow.name);
}

/** Whether `workflow` names `agent` in its `agents` (the same object, or one of its name). */
export function namesAgent(workflow: AnyWorkflow, agent: Agent): boolean {
  return Object.values(workflow.agents ?? {}).some((named) => named === agent || named.name === agent.name);
}

function agentsLoopingIn(workflow: AnyWorkflow, agents: readonly Agent[]): Agent[] {
  return agents.filter((agent) => isLoopOf(loopOf(agent), workflow));
}

/** The agents of these workflows, each once (the first of a name), with the workflows that name them. */
function agentsOf(workflows: readonly AnyWorkflow[]): Agent[] {
  const found = new Map<string, Agent>();
  for (const workflow of workflows) for (const agent of Object.values(workflow.agents ?? {})) if (!found.has(agent.name)) found.set(agent.name, agent);
  return [...found.values()];
}

/**
 * What is wrong with how these workflows name their agents: a key that is not its agent's name, two
 * agents of one name, an agent whose loop workflow is not among them or does not name it.
 */
function agentProblems(workflows: readonly AnyWorkflow[]): string[] {
  const problems: string[] = [];
  const byName = new Map<string, { agent: Agent; workflow: string }>();
  const twice = new Set<string>();
  for (const workflow of workflows) {
    for (const [key, agent] of Object.entries(workflow.agents ?? {})) {
      if (!agent || typeof agent.name !== "string") {
        problems.push(`${workflow.name}: \`agents\` names ${JSON.stringify(key)} but gives no agent; give the agent defineAgent returned.`);
        continue;
      }
      if (key !== agent.name) problems.push(`${workflow.name}: it names agent ${agent.name} under the key ${JSON.stringify(key)}; key each agent by its name (\`agents: { ${agent.name} }\`).`);
      const first = byName.get(agent.name);
      if (!first) byName.set(agent.name, { agent, workflow: workflow.name });
      else if (first.agent !== agent && !twice.has(agent.name)) {
        twice.add(agent.name);
        problems.push(`Agent ${agent.name}: ${first.workflow} and ${workflow.name} name two different agents of this name; an agent's conversations are kept by its name, so rename one, or declare it once and name that one in both.`);
      }
    }
  }
  for (const { agent, workflow: namedBy } of byName.values()) {
    const loop = loopOf(agent);
    if (!loop) continue;
    const home = workflows.find((workflow) => isLoopOf(loop, workflow));
    const loopName = typeof loop.name === "string" ? loop.name : "its loop";
    if (!home) problems.push(`Agent ${agent.name} (named by ${namedBy}): its loop is the workflow ${loopName}, which is not registered; register ${loopName} too, a parked run of the agent waits there.`);
    else if (!namesAgent(home, agent)) problems.push(`${home.name}: it is the loop of agent ${agent.name} but does not name it; add it to \`agents: { ${agent.name} }\`.`);
  }
  return problems;
}

/** What the generated form can ask, for the fix of a questionnaire it cannot. */
const ASKABLE_FIELDS =
  "make it text, a number, a date, yes/no, a choice (z.enum) or a list of text, numbers or dates typed on one line (a nested z.object is asked as a group of fields), or leave it out of the questionnaire";

/**
 * Each questionnaire of `workflow` (its events declared with `answerOf(Schema)`) that the generated
 * form cannot ask, one line each, naming the workflow, the states that take its answer, the field
 * and the fix: found when Parley starts, not when a run first enters the state and asks.
 */
export function questionnaireProblems(workflow: AnyWorkflow): string[] {
  const problems: string[] = [];
  const states = Object.entries(workflow.states ?? {});
  for (const [event, declared] of Object.entries(workflow.events ?? {})) {
    const questionnaire = questionnaireOf(declared);
    if (!questionnaire) continue;
    try {
      specFromSchema(questionnaire);
    } catch (error) {
      const asking = states.filter(([, state]) => state?.on?.[event] || state?.subscribe?.[event]).map(([name]) => name);
      const where = asking.length > 0 ? `${workflow.name}, state ${asking.join(" and state ")}` : workflow.name;
      if (!isUnsupportedSchemaError(error)) {
        // A schema that throws while it is read (a default computed by a function that fails, say): as wrong, and said as plainly.
        problems.push(`${where}: the questionnaire of ${event} could not be read (${error instanceof Error ? error.message : String(error)}); fix the schema given to answerOf(…).`);
        continue;
      }
      const field = error.path === "" ? "the questionnaire itself" : `field "${error.path}"`;
      problems.push(`${where}: the form cannot ask the questionnaire of ${event} (${field}): ${error.problem} Fix: ${error.path === "" ? "declare it as answerOf(z.object({ … }))" : ASKABLE_FIELDS}.`);
    }
  }
  return problems;
}

/** What is wrong with one workflow, each line naming the state and the fix. */
function problemsOf(workflow: AnyWorkflow, agents: readonly Agent[]): string[] {
  const problems: string[] = [];
  const name = workflow.name;
  const states = workflow.states ?? {};
  const events = workflow.events ?? {};
  const stateNames = Object.keys(states);
  const declared = (event: string) => Object.prototype.hasOwnProperty.call(events, event);
  const listed = (names: readonly string[]) => (names.length > 0 ? names.join(", ") : "none");

  if (!stateNames.includes(workflow.initial)) {
    problems.push(`${name}: its initial state ${JSON.stringify(workflow.initial)} is not one of its states (${listed(stateNames)}); name a declared state in \`initial\`.`);
  }
  for (const [stateName, state] of Object.entries(states)) {
    if (!state) continue;
    const where = `${name}, state ${stateName}`;
    if (state.terminal !== undefined && state.terminal !== "success" && state.terminal !== "error") {
      problems.push(`${where}: \`terminal\` is ${JSON.stringify(state.terminal)}; write "success" or "error".`);
    }
    if (state.terminal && (state.enter || state.subscribe || state.on)) {
      problems.push(`${where}: a terminal state ends the run, so its enter/subscribe/on never run; move them to a state that is not terminal.`);
    }
    for (const event of Object.keys(state.subscribe ?? {})) {
      const subscription = state.subscribe?.[event];
      if (!subscription) continue;
      if (!declared(event)) {
        problems.push(`${where}: it subscribes to the event ${JSON.stringify(event)}, which the workflow does not declare; add it to \`events\` (declared: ${listed(Object.keys(events))}).`);
        continue;
      }
      if (!state.on?.[event]) problems.push(`${where}: it waits for ${event} but has no \`on: { ${event}(run, payload) }\` to take it; add the handler.`);
      if (subscription.within && !subscription.unfinished && !isAnswerEvent(events[event])) {
        problems.push(`${where}: the ${event} slot has a clock (\`within\`) but no \`unfinished\` branch; add one, or an expired run would sit nowhere.`);
      }
      if (subscription.escalate !== undefined) {
        const chain = `its ${event} wait`;
        const problem = subscription.within ? escalationProblem(subscription.escalate, chain) : `${chain} escalates without a clock; give it \`within\`, whose fractions the steps are`;
        if (problem) problems.push(`${where}: ${problem}.`);
      }
    }
    for (const event of Object.keys(state.on ?? {})) {
      if (state.on?.[event] && !declared(event)) {
        problems.push(`${where}: it handles the event ${JSON.stringify(event)}, which the workflow does not declare; add it to \`events\` (declared: ${listed(Object.keys(events))}).`);
      }
    }
  }

  problems.push(...questionnaireProblems(workflow));

  for (const agent of agentsLoopingIn(workflow, agents)) {
    const where = `${name} (the loop of agent ${agent.name})`;
    if (agent.memory !== "persistent") {
      problems.push(`${where}: the agent asks people but its memory is ${JSON.stringify(agent.memory)}; declare it with \`memory: "persistent"\` so it can come back to their answers.`);
    }
    const park = states[LOOP_PARK_STATE];
    if (!park) {
      problems.push(`${where}: it has no ${LOOP_PARK_STATE} state for a parked run to wait in; add one that subscribes to ${LOOP_ANSWER_EVENT}.`);
    } else if (park.terminal) {
      problems.push(`${where}, state ${LOOP_PARK_STATE}: a parked run waits there, but it is terminal; make it a state that subscribes to ${LOOP_ANSWER_EVENT}.`);
    }
    const answered = events[LOOP_ANSWER_EVENT];
    if (!answered) {
      problems.push(`${where}: it does not declare the ${LOOP_ANSWER_EVENT} event a person's answer arrives by; add \`events: { ${LOOP_ANSWER_EVENT}: agentAnswered() }\`.`);
    } else if (!answered.safeParse(SAMPLE_AGENT_ANSWER).success) {
      problems.push(`${where}: its ${LOOP_ANSWER_EVENT} event does not take the runtime's answer to an agent's ask ({ text, questionId }); declare it as \`${LOOP_ANSWER_EVENT}: agentAnswered()\`.`);
    }
  }
  return problems;
}

/**
 * Every mistake in a set of workflows registered together that the types cannot see (plain
 * JavaScript, a name typed wrong in a string, two workflows or agents of one name, an agent's loop),
 * one line each naming the workflow, the state and the fix. The agents are those the workflows name.
 */
export function workflowProblems(workflows: readonly AnyWorkflow[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const agents = agentsOf(workflows);
  for (const workflow of workflows) {
    if (seen.has(workflow.name)) {
      problems.push(`${workflow.name}: two registered workflows have this name; a run names its workflow, so rename one.`);
      continue;
    }
    seen.add(workflow.name);
    problems.push(...problemsOf(workflow, agents));
  }
  problems.push(...agentProblems(workflows.filter((workflow, index) => workflows.findIndex((other) => other.name === workflow.name) === index)));
  return problems;
}

/** The lists of workflows checked already (a registry's), so a runtime built on one does not check it again. */
const checked = new WeakSet<readonly unknown[]>();

/** Records that `workflows` passed the check (the registry checks its workflows when it is built). */
export function markChecked(workflows: readonly unknown[]): void {
  checked.add(workflows);
}

/**
 * Checks every workflow a runtime registers, at once, before it runs anything (see
 * {@link workflowProblems}); a list the registry checked already is not checked again. Throws one
 * error listing every mistake, each naming the workflow, the state and the fix.
 */
export function checkWorkflows(workflows: readonly AnyWorkflow[]): void {
  if (checked.has(workflows)) return;
  const problems = workflowProblems(workflows);
  if (problems.length === 0) {
    markChecked(workflows);
    return;
  }
  throw definitionError(
    `${problems.length === 1 ? "A registered workflow is wrong" : `Registered workflows have ${problems.length} mistakes`}:\n- ${problems.join("\n- ")}`,
  );
}
