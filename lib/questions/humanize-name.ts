/**
 * A readable form of a field or option name, used where the schema gives no description or title:
 * `merchantName` → "Merchant name", `card_refund` → "Card refund", `vatID` → "Vat ID".
 */
export function humanizeName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_\-.]+/)
    .filter((word) => word !== "");
  if (words.length === 0) return name;
  // Acronyms keep their capitals ("VAT number"); everything else reads as a sentence.
  const sentence = words.map((word) => (isAcronym(word) ? word : word.toLowerCase())).join(" ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function isAcronym(word: string): boolean {
  return word.length > 1 && word === word.toUpperCase() && /[A-Z]/.test(word);
}
