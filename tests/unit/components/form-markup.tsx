import { renderToStaticMarkup } from "react-dom/server";

import { QuestionForm, type QuestionFormProps } from "@/components/questions/question-form";
import type { QuestionFormState } from "@/components/questions/question-form-state";
import type { QuestionSpec } from "@/lib/questions";

/** One element of server-rendered markup: its tag, attributes (entities decoded) and place. */
export interface Element {
  tag: string;
  attributes: Record<string, string>;
  /** Offset of the tag in the markup, for "comes before" checks. */
  at: number;
  /** For `<option>`, `<label>`, `<legend>`, `<p>`, `<li>`: the text inside, up to the closing tag (markup kept). */
  inner: string;
}

/** The markup a browser without JavaScript receives for this spec and state. */
export function renderForm(spec: QuestionSpec, state: QuestionFormState | null = null, props: Partial<QuestionFormProps> = {}): string {
  return renderToStaticMarkup(<QuestionForm spec={spec} action="/answer" state={state} {...props} />);
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * Every element with this tag. React's static markup is regular (attributes double-quoted, their
 * quotes escaped), so a pattern reads it reliably — no DOM needed.
 */
export function elements(html: string, tag: string): Element[] {
  const found: Element[] = [];
  const pattern = new RegExp(`<${tag}((?:\\s+[\\w:-]+(?:="[^"]*")?)*)\\s*/?>`, "g");
  for (const match of html.matchAll(pattern)) {
    const attributes: Record<string, string> = {};
    for (const attribute of (match[1] ?? "").matchAll(/([\w:-]+)(?:="([^"]*)")?/g)) attributes[attribute[1] ?? ""] = decode(attribute[2] ?? "");
    const start = (match.index ?? 0) + match[0].length;
    const close = html.indexOf(`</${tag}>`, start);
    found.push({ tag, attributes, at: match.index ?? 0, inner: close === -1 ? "" : html.slice(start, close) });
  }
  return found;
}

/**
 * The form's controls in document order: inputs, selects, and text areas — a text area's value, its
 * text, read into `value` as an input's is (a free-text question with room for an explanation is one).
 */
export function controlsOf(html: string): Element[] {
  const areas = elements(html, "textarea").map((area) => ({ ...area, attributes: { ...area.attributes, value: textOf(area.inner) } }));
  return [...elements(html, "input"), ...elements(html, "select"), ...areas].sort((a, b) => a.at - b.at);
}

/** The element with this id; fails loudly when there is none. */
export function byId(html: string, id: string): Element {
  const element = ["input", "select", "textarea", "p", "ul", "span", "label", "legend", "fieldset", "div"].flatMap((tag) => elements(html, tag)).find((candidate) => candidate.attributes.id === id);
  if (element === undefined) throw new Error(`no element with id ${id}`);
  return element;
}

/** Text content: tags dropped, entities decoded. */
export function textOf(markup: string): string {
  return decode(markup.replace(/<[^>]*>/g, ""));
}

/**
 * What a browser with JavaScript off posts for this markup, in document order: text and date
 * inputs with their value, ticked boxes and radios (`on` without a value), each select's selected
 * option (else its first). Inputs edited by the "person" are given in `typed`, by input id.
 */
export function posted(html: string, edits: { typed?: Record<string, string>; tick?: string[]; untick?: string[] } = {}): URLSearchParams {
  const controls = controlsOf(html);
  const ticked = new Set(controls.filter((control) => "checked" in control.attributes).map((control) => control));
  for (const id of edits.tick ?? []) {
    const control = controls.find((candidate) => candidate.attributes.id === id);
    if (control === undefined) throw new Error(`no input with id ${id}`);
    // Ticking a radio unticks the others of its name.
    if (control.attributes.type === "radio") for (const other of controls) if (other.attributes.type === "radio" && other.attributes.name === control.attributes.name) ticked.delete(other);
    ticked.add(control);
  }
  for (const id of edits.untick ?? []) for (const control of controls) if (control.attributes.id === id) ticked.delete(control);
  const form = new URLSearchParams();
  for (const control of controls) {
    const { name, id = "", type = "text" } = control.attributes;
    if (name === undefined || "disabled" in control.attributes) continue;
    if (control.tag === "select") {
      const options = elements(control.inner, "option");
      const chosen = options.find((option) => "selected" in option.attributes) ?? options[0];
      if (chosen !== undefined) form.append(name, chosen.attributes.value ?? textOf(chosen.inner));
    } else if (type === "checkbox" || type === "radio") {
      if (ticked.has(control)) form.append(name, control.attributes.value ?? "on");
    } else {
      form.append(name, edits.typed?.[id] ?? control.attributes.value ?? "");
    }
  }
  return form;
}

/** The input (or select, or text area) named after this path, the first of several for a group. */
export function inputNamed(html: string, path: string): Element {
  const element = controlsOf(html).find((candidate) => candidate.attributes.name === path);
  if (element === undefined) throw new Error(`no input named ${path}`);
  return element;
}
