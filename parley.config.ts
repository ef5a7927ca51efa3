import { deployApproval } from "@/examples/deploy-approval";
import { expenseReview } from "@/examples/expense-review";
import { defineParley } from "parley/workflows";

/**
 * The registry: the workflows this Parley runs. Each app is a folder of its own (workflows, tables,
 * migrations, tests); registering one is one line here. With no apps, Parley starts empty and works.
 */
export default defineParley({
  apps: [expenseReview, deployApproval],
});
