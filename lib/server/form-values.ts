import { z } from "zod";
import { formDataToObject, isFormSubmission } from "./action-input";

/** A yes/no sent by a form: "true"/"on" is yes, "false" or nothing is no. */
export const formBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "on"])])
  .optional()
  .transform((value) => value === true || value === "true" || value === "on");

/**
 * A field's text as a form posted it, to show again beside the field's refusal (React resets a form
 * after its action); "" for anything that is not a form submission or not text.
 */
export function submittedText(submitted: unknown, field: string): string {
  if (!isFormSubmission(submitted)) return "";
  const value = formDataToObject(submitted)[field];
  return typeof value === "string" ? value : "";
}

/**
 * Checkboxes of one name as a form posts them: none is an empty list, one a string, several a list;
 * `list` judges them.
 */
export function formList<List extends z.ZodType>(list: List) {
  return z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), list);
}

/** The values of checkboxes of one name a form posted, to tick them again beside a refusal. */
export function submittedList(submitted: unknown, field: string): string[] {
  if (!isFormSubmission(submitted)) return [];
  const value = formDataToObject(submitted)[field];
  return Array.isArray(value) ? value.filter((each): each is string => typeof each === "string") : typeof value === "string" ? [value] : [];
}
