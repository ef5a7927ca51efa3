import { redirect } from "next/navigation";

/** Reviews became Runs (any registered workflow): old links and bookmarks land there. */
export default async function ReviewsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const state = (await searchParams).state;
  redirect(typeof state === "string" ? `/runs?state=${encodeURIComponent(state)}` : "/runs");
}
