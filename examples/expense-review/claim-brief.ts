import type { Claim } from "./schema";

/** Formats cents as an amount people read ("1,240.00 USD"). */
export function formatAmount(amountCents: number, currency: string): string {
  return `${(amountCents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
}

/** The instruction the Auditor is given for a claim: the record, field by field. */
export function claimBrief(claim: Claim): string {
  return [
    "Review this claim.",
    `Title: ${claim.title}`,
    `Merchant: ${claim.merchant}`,
    `Amount: ${formatAmount(claim.amountCents, claim.currency)}`,
    `Date: ${claim.incurredOn}`,
    `Description: ${claim.description}`,
  ].join("\n");
}

/** The Auditor's verdict, as it writes it on its last line(s). */
export interface AuditDecision {
  decision: "approved" | "rejected";
  reason: string;
}

/** Writes a verdict in the form {@link parseDecision} reads. */
export function formatDecision(decision: AuditDecision): string {
  return `Decision: ${decision.decision}\nReason: ${decision.reason}`;
}

/** Reads the Auditor's verdict from its final text; undefined when it gave none. */
export function parseDecision(text: string): AuditDecision | undefined {
  const decision = /^Decision:\s*(approved|rejected)\s*$/im.exec(text)?.[1]?.toLowerCase();
  const reason = /^Reason:\s*(.+)$/im.exec(text)?.[1]?.trim();
  if ((decision !== "approved" && decision !== "rejected") || !reason) return undefined;
  return { decision, reason };
}
