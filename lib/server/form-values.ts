import { z } from "zod";

/** A yes/no sent by a form: "true"/"on" is yes, "false" or nothing is no. */
export const formBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "on"])])
  .optional()
  .transform((value) => value === true || value === "true" || value === "on");
