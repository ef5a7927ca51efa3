import { redirect } from "next/navigation";
import { RUN_WATCHERS } from "@/lib/auth/roles";
import { requirePageUser } from "@/lib/server/session";

/** Reviews became Runs (any registered workflow): old links and bookmarks land there, for those who may see it. */
export default async function ReviewsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(RUN_WATCHERS);
  const state = (await searchParams).state;
  redirect(typeof state === "string" ? `/runs?state=${encodeURIComponent(state)}` : "/runs");
}
