import { headers } from "next/headers";
import { configuredPublicUrl } from "@/lib/config";
import { requestHost } from "./request-guard";

/**
 * Where links Parley hands out (an invite) should point: the configured public address, else the
 * address this request came to.
 */
export async function publicBaseUrl(): Promise<string> {
  const configured = configuredPublicUrl();
  if (configured) return configured;
  const incoming = await headers();
  const protocol = incoming.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${protocol}://${requestHost(incoming) ?? "localhost"}`;
}
