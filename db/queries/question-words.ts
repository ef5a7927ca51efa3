import { type SQL, sql } from "drizzle-orm";
import { a } from "./read-aliases";

/**
 * The words of question `a` that a search looks in, in lower case: its title, its spec's title, every
 * field's question, and who asks it (the agent's name, else the flow's).
 */
const QUESTION_WORDS = sql`lower(concat_ws(' ', ${a.title}, ${a.spec} ->> 'title', (select string_agg(f ->> 'question', ' ') from jsonb_array_elements(${a.spec} -> 'fields') f), coalesce(${a.agent}, ${a.workflow})))`;

/** Whether question `a` has `text` (lower case) in its words, or is asked by one of the flows `workflows`. */
export function hasWords(text: string, workflows: readonly string[]): SQL {
  const found = sql`position(${text}::text in ${QUESTION_WORDS}) > 0`;
  return workflows.length === 0 ? found : sql`(${found} or ${a.workflow} in (${sql.join(workflows.map((name) => sql`${name}::text`), sql`, `)}))`;
}
