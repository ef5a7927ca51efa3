import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/database";
import { PersonAwayForm } from "@/components/person-away-form";
import { listPeople } from "@/lib/people";
import { requirePageUser } from "@/lib/server/session";
import { setPersonAwayAction } from "./actions";

export const metadata: Metadata = { title: "Admin" };

export default async function AdminPage() {
  await requirePageUser(["admin"]);
  const people = await listPeople(await getDb());
  return (
    <section>
      <h1>Admin</h1>
      <p>
        <Link href="/admin/people">People</Link>: add someone (they get an invite link), change roles and groups, deactivate or reactivate, and see what changed.
      </p>
      <p>
        <Link href="/admin/groups">Groups</Link>: the teams questions can be put to, e.g. finance or on-call; who is in each.
      </p>
      <p>
        <Link href="/admin/sla">SLA clocks</Link>: every open wait, who it is waiting on and for how long; what breached; reassign and remind.
      </p>
      <p>
        <Link href="/admin/deliveries">Failed deliveries</Link>: emails and webhooks about questions that did not get through, and why.
      </p>
      <p>
        <Link href="/admin/api-keys">API keys</Link>: the keys agents ask people with over the HTTP API; make one, see when each was last used, revoke it.
      </p>
      <h2>People</h2>
      <table className="table stacks" aria-label="People">
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Roles</th>
            <th>Away</th>
          </tr>
        </thead>
        <tbody>
          {people.map((person) => (
            <tr key={person.id} data-testid={`person-${person.email}`}>
              <td>
                <Link href={`/admin/people/${person.id}`}>{person.name}</Link>
              </td>
              <td data-label="Email">{person.email}</td>
              <td data-label="Roles">{person.roles.join(", ")}</td>
              <td data-label="Away">
                <PersonAwayForm userId={person.id} name={person.name} away={person.away} action={setPersonAwayAction} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
