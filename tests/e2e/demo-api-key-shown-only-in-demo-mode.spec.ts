import { expect, ON_POSTGRES, people, signedInPage, test } from "./fixtures";

test(ON_POSTGRES ? "a DATABASE_URL server shows no demo API key" : "the embedded demo shows its demo API key to admins", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin/api-keys");
  const demo = admin.getByRole("region", { name: "Demo API key" });
  if (ON_POSTGRES) {
    await expect(demo).toHaveCount(0);
    await expect(admin.getByTestId("api-key-row").filter({ hasText: "Demo agent" })).toHaveCount(0);
  } else {
    await expect(demo.getByTestId("api-key-secret")).toHaveText(/^pk_[A-Za-z0-9_-]{32}$/);
    await expect(demo.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
    await expect(admin.getByTestId("api-key-row").filter({ hasText: "Demo agent" })).toContainText("Live");
  }
  await admin.context().close();
});
