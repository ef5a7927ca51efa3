import { redirect } from "next/navigation";
import { homePathFor } from "@/lib/auth/roles";
import { requirePageUser } from "@/lib/server/session";

/** The start page is the signed-in person's most common job. */
export default async function HomePage() {
  const user = await requirePageUser();
  redirect(homePathFor(user.roles));
}
