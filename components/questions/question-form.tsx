"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { type ComponentProps, type FormEvent, type ReactNode, useEffect, useId, useMemo } from "react";
import { type FieldValues, get, type Resolver, useForm } from "react-hook-form";

import { LAST_ATTEMPT_WARNING, MORE_CHECKS_MESSAGE, type QuestionField as Field, type QuestionGroup, type QuestionSpec } from "@/lib/questions";

import { clientHintSchema, PATTERN_HINT } from "./client-hints";
import { defaultEntries } from "./field-entries";
import { QuestionField } from "./question-field";
import { messagesAt, type QuestionFormState, startingEntries } from "./question-form-state";

/** What {@link QuestionForm} takes. */
export interface QuestionFormProps {
  /** The question spec, as stored with the question. Its text is untrusted and rendered as text only. */
  spec: QuestionSpec;
  /** The form action — the dispatcher `useActionState` returns for the server action. */
  action: NonNullable<ComponentProps<"form">["action"]>;
  /** What the server action returned last (values, refusals, attempt label); `null` at first. */
  state?: QuestionFormState | null;
  /** A submission is on its way (the third item of `useActionState`). */
  pending?: boolean;
  /** The submit button's text; "Send answer" unless given. */
  submitLabel?: string;
  /** Show the spec's title and description above the questions (the page may show them itself). */
  showIntro?: boolean;
  /** Extra inputs posted with the answer, e.g. a hidden question id; their names must not be field paths. */
  children?: ReactNode;
  /**
   * Stop in the browser a submission the hints say will certainly be refused: for a question whose
   * refusals use up attempts. Elsewhere (a start form) the server's refusal costs nothing and says it
   * in the schema's own words, so the form goes on to it.
   */
  stopCertainRefusals?: boolean;
}

/**
 * The form generated from a question spec: one input per question, named by its path, nested
 * objects as fieldsets. It is a plain `<form action>` that works without JavaScript — after a
 * refusal the server's messages sit beside their fields and the submitted values fill the inputs
 * again. With JavaScript, react-hook-form adds instant hints as the person types, and (with
 * `stopCertainRefusals`, for a question's answer) a submission the hints say the server would certainly refuse (a question left empty, a number that is none, a
 * value out of its range) is stopped in the browser, on its field, before it costs an attempt; text
 * off its pattern goes on to the server, which refuses it in the schema's own words. The server still judges — and
 * counts — whatever reaches it; its verdict is the only one that counts.
 */
export function QuestionForm({ spec, action, state, pending = false, submitLabel = "Send answer", showIntro = true, children, stopCertainRefusals = false }: QuestionFormProps) {
  const baseId = useId();
  const hints = useMemo(() => clientHintSchema(spec), [spec]);
  const resolver = useMemo(() => zodResolver(hints as never) as unknown as Resolver<FieldValues>, [hints]);
  // Hints while typing, not on blur: a hint that appears on blur moves the submit button away from
  // the click that caused the blur, and the submission is lost.
  const { register, formState, clearErrors, getValues, trigger, setFocus } = useForm<FieldValues>({ resolver, mode: "onChange" });
  // A submission the server would certainly refuse stays in the browser: its hints show, the first such question takes the focus.
  // A text off its pattern is left to the server, which refuses it in the schema's own words.
  const stopCertainRefusal = (event: FormEvent<HTMLFormElement>) => {
    if (!stopCertainRefusals) return;
    const verdict = hints.safeParse(getValues());
    const stopping = verdict.success ? [] : verdict.error.issues.filter((issue) => issue.message !== PATTERN_HINT);
    if (stopping.length === 0) return;
    event.preventDefault();
    const first = spec.fields.find((field) => stopping.some((issue) => issue.path.join(".") === field.path));
    void trigger().then(() => {
      if (first) setFocus(first.path);
    });
  };
  // The server has spoken on a new submission: the browser's older hints are stale.
  useEffect(() => clearErrors(), [state, clearErrors]);

  const fieldPaths = new Set(spec.fields.map((field) => field.path));
  const fieldErrors = state?.fieldErrors;
  const refusedFields = spec.fields.filter((field) => messagesAt(fieldErrors, field.path).length > 0);
  // Refusals on a path that is no question still reach the person, in the banner.
  const strayMessages = Object.keys(fieldErrors ?? {})
    .filter((path) => !fieldPaths.has(path))
    .flatMap((path) => messagesAt(fieldErrors, path));
  const formMessages = [...(state?.formErrors ?? []), ...strayMessages];
  const refused = refusedFields.length > 0 || formMessages.length > 0;

  const renderField = (field: Field) => {
    const index = spec.fields.indexOf(field);
    const error: unknown = get(formState.errors, field.path);
    const browserHint = typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string" ? (error as { message: string }).message : undefined;
    return (
      <QuestionField
        key={field.path}
        field={field}
        entries={startingEntries(field, state?.values, defaultEntries)}
        inputId={`${baseId}-q${index}`}
        refusals={messagesAt(fieldErrors, field.path)}
        browserHint={browserHint}
        bind={() => register(field.path)}
      />
    );
  };

  return (
    <form action={action} onSubmit={stopCertainRefusal} noValidate className="question-form" aria-busy={pending || undefined}>
      {showIntro && spec.title !== undefined ? <h2 className="question-title">{spec.title}</h2> : null}
      {showIntro && spec.description !== undefined ? <p className="question-description">{spec.description}</p> : null}
      {refused ? (
        <div role="alert" className="question-banner">
          <p className="question-banner-lead">
            {refusedFields.length > 0 ? `Some answers need another look (${refusedFields.length} ${refusedFields.length === 1 ? "question" : "questions"}).` : "The answer was not accepted."}
          </p>
          {formMessages.length > 0 ? (
            <ul className="question-form-errors">
              {formMessages.map((message, index) => (
                <li key={index}>{message}</li>
              ))}
            </ul>
          ) : null}
          {state?.moreChecksAfterThese ? <p className="question-more-checks">{MORE_CHECKS_MESSAGE}</p> : null}
        </div>
      ) : null}
      <QuestionTree spec={spec} renderField={renderField} />
      {children}
      <div className="question-submit">
        <button type="submit" className="primary" disabled={pending}>
          {pending ? "Sending…" : submitLabel}
        </button>
        {state?.attemptLabel === undefined ? null : <span className="question-attempt">{capitalise(state.attemptLabel)}</span>}
      </div>
      {state?.lastAttempt ? (
        <p className="question-last-attempt" role="note">
          {LAST_ATTEMPT_WARNING}
        </p>
      ) : null}
    </form>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

type Node = { type: "field"; field: Field } | { type: "group"; group: QuestionGroup; children: Node[] };

/** The questions in the schema's order, each nested object a fieldset with its heading as legend. */
function QuestionTree({ spec, renderField }: { spec: QuestionSpec; renderField: (field: Field) => ReactNode }) {
  const nodes = useMemo(() => buildTree(spec), [spec]);
  const render = (node: Node): ReactNode =>
    node.type === "field" ? (
      renderField(node.field)
    ) : (
      <fieldset key={`group:${node.group.path}`} className="question-group">
        <legend>
          {node.group.heading}
          {node.group.optional ? <span className="question-optional"> (optional)</span> : null}
        </legend>
        {node.children.map(render)}
      </fieldset>
    );
  return <>{nodes.map(render)}</>;
}

/** Place each field under its chain of groups, groups appearing where their first field does. */
function buildTree(spec: QuestionSpec): Node[] {
  const groups = new Map(spec.groups.map((group) => [group.path, group]));
  const groupNodes = new Map<string, Extract<Node, { type: "group" }>>();
  const root: Node[] = [];
  const containerOf = (path: string | undefined, seen: Set<string> = new Set()): Node[] => {
    const group = path === undefined ? undefined : groups.get(path);
    // A missing or cyclic parent (a spec from elsewhere) puts the field at the top rather than losing it.
    if (group === undefined || seen.has(group.path)) return root;
    seen.add(group.path);
    let node = groupNodes.get(group.path);
    if (node === undefined) {
      node = { type: "group", group, children: [] };
      groupNodes.set(group.path, node);
      containerOf(group.group, seen).push(node);
    }
    return node.children;
  };
  for (const field of spec.fields) containerOf(field.group).push({ type: "field", field });
  return root;
}
