"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

// Several changes often land together (a deposit, then the run's next state): refresh once for them.
const SETTLE_MS = 150;

/**
 * Keeps the page current without a reload: listens to the signed-in person's live events and
 * re-renders the page from the server when one arrives. The server decides who hears what. Given a
 * task, it also follows that task's run (the server checks the person may).
 */
export function LiveRefresh({ taskId }: { taskId?: string } = {}) {
  const router = useRouter();
  useEffect(() => {
    const source = new EventSource(taskId ? `/api/events?task=${encodeURIComponent(taskId)}` : "/api/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    // This person opened too many streams elsewhere and this, their oldest, was closed: reconnecting
    // would only close another. The page still works; it just stops refreshing itself.
    source.addEventListener("replaced", () => source.close());
    source.addEventListener("change", () => {
      clearTimeout(timer);
      timer = setTimeout(() => router.refresh(), SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [router, taskId]);
  return null;
}
