import { z } from "zod";
import type { StartPerson } from "./define-app";

/** How a person is offered on a start form: their name, and whether (and to whom) questions go while they are away. */
function titleOf(person: StartPerson): string {
  if (!person.away) return person.name;
  return person.delegateName ? `${person.name} (away — ${person.delegateName} answers for them)` : `${person.name} (away — cannot be asked)`;
}

/**
 * A start-form question whose answer is one of these people (by id), offered by name, with anyone
 * away marked so before the form is sent: one who named a delegate says who answers for them (their
 * questions go there); one who did not cannot be chosen — they would get no question. Anything else
 * is refused with `refusal`; with nobody to offer, every answer is refused with a message saying so.
 */
export function personChoice(people: readonly StartPerson[], question: string, refusal = "Choose one of the people listed."): z.ZodType<string, string> {
  const options = people.map((person) => z.literal(person.id, { error: refusal }).meta({ title: titleOf(person) }));
  const [first, ...rest] = options;
  if (!first) return z.string().refine(() => false, "There is nobody to ask yet: an admin has to add people with the assignee role first.").describe(question);
  const unreachable = new Map(people.filter((person) => person.away && !person.delegateName).map((person) => [person.id, person.name]));
  const choice = rest.length === 0 ? first : z.union([first, ...rest], { error: refusal });
  return choice
    .superRefine((id, context) => {
      const away = unreachable.get(id);
      if (away) context.addIssue({ code: "custom", message: `${away} is away and named nobody to answer for them: choose someone else.` });
    })
    // Found by typing a name, however many people there are (a list of everyone is no way to choose).
    .meta({ description: question, searchable: true });
}
