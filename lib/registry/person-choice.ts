import { z } from "zod";
import type { StartPerson } from "./define-app";

/**
 * A start-form question whose answer is one of these people (by id), offered by name — "(away)"
 * beside anyone marked away. Anything else is refused with `refusal`; with nobody to offer, every
 * answer is refused with a message saying so.
 */
export function personChoice(people: readonly StartPerson[], question: string, refusal = "Choose one of the people listed."): z.ZodType<string, string> {
  const options = people.map((person) => z.literal(person.id, { error: refusal }).meta({ title: person.away ? `${person.name} (away)` : person.name }));
  const [first, ...rest] = options;
  if (!first) return z.string().refine(() => false, "There is nobody to ask yet: an admin has to add people with the assignee role first.").describe(question);
  return (rest.length === 0 ? first : z.union([first, ...rest], { error: refusal })).describe(question);
}
