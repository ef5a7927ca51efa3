import type { Role } from "@/db/schema";

export type { Role };

/** Whether someone holding `held` may do what needs any one of `allowed` (none listed: anyone signed in). */
export function hasAnyRole(held: readonly Role[], allowed: readonly Role[]): boolean {
  return allowed.length === 0 || allowed.some((role) => held.includes(role));
}

/** The page a person lands on after sign-in: their most common job first. */
export function homePathFor(roles: readonly Role[]): string {
  if (roles.includes("assignee")) return "/inbox";
  if (roles.includes("operator")) return "/runs";
  if (roles.includes("admin")) return "/admin";
  return "/inbox";
}

/** The navigation a person sees, in order. */
export function navigationFor(roles: readonly Role[]): { href: string; label: string }[] {
  const links: { href: string; label: string; role: Role }[] = [
    { href: "/inbox", label: "Inbox", role: "assignee" },
    { href: "/runs", label: "Runs", role: "operator" },
    { href: "/admin", label: "Admin", role: "admin" },
  ];
  return links.filter((link) => roles.includes(link.role)).map(({ href, label }) => ({ href, label }));
}
