import { defineAgent } from "@/lib/runtime";
import { ReviewClaim } from "./review-claim";

/** The demo agent: reviews an expense claim, asking the filer about what the record can't explain. */
export const Auditor = defineAgent({
  name: "Auditor",
  purpose: "Review a claim.",
  prompt:
    "You review expense claims. Approve or reject each with a reason. When the record cannot explain a charge, " +
    "ask the filer with the ask tool rather than guess. End with two lines: `Decision: approved|rejected` and `Reason: …`.",
  memory: "persistent",
  principal: { email: "auditor@parley.test" },
  loop: () => ReviewClaim,
});
