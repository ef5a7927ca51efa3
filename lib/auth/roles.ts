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

/** Who sees the Runs list and every run page: operators, who start and watch runs, and admins, who see everything. */
export const RUN_WATCHERS: readonly Role[] = ["operator", "admin"];

/** The navigation a person sees, in order. */
export function navigationFor(roles: readonly Role[]): { href: string; label: string }[] {
  const links: { href: string; label: string; roles: readonly Role[] }[] = [
    { href: "/inbox", label: "Inbox", roles: ["assignee"] },
    { href: "/runs", label: "Runs", roles: RUN_WATCHERS },
    { href: "/admin", label: "Admin", roles: ["admin"] },
  ];
  return links.filter((link) => hasAnyRole(roles, link.roles)).map(({ href, label }) => ({ href, label }));
}
