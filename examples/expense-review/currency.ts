import { z } from "zod";

/** The ISO 4217 codes this runtime knows (Node's ICU): "USD", "EUR", … */
const KNOWN_CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/**
 * A currency, typed as its three-letter code in any case ("usd" is USD), and refused in one sentence
 * that says what to type when it is not a code at all or not a currency anyone uses.
 */
export function currencyCode(defaultCode: string) {
  return z
    .string()
    .trim()
    .toUpperCase()
    .superRefine((code, context) => {
      if (!/^[A-Z]{3}$/.test(code)) context.addIssue({ code: "custom", message: "Use a three-letter currency code, like USD or EUR." });
      else if (!KNOWN_CURRENCIES.has(code)) context.addIssue({ code: "custom", message: `${code} is not a currency code; use one like USD or EUR.` });
    })
    .default(defaultCode);
}
