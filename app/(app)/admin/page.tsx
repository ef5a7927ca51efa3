import type { Metadata } from "next";
import Link from "next/link";
import { PeoplePager } from "@/components/people-pager";
import { getDb } from "@/lib/database";
import { PersonAwayForm } from "@/components/person-away-form";
import { listPeopleForAdmin, PEOPLE_PAGE_SIZE } from "@/lib/people";
import { requirePageUser } from "@/lib/server/session";
import { setPersonAwayAction } from "./actions";

export const metadata: Metadata = { title: "Admin" };

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim().slice(0, 200) ?? "";
}

/** This page's address for a search of people and a page of them. */
function adminHref(params: { q?: string; after?: string }): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  return query.size > 0 ? `/admin?${query}#people` : "/admin#people";
}

export default async function AdminPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(["admin"]);
  const params = await searchParams;
  const search = single(params.q);
  const after = single(params.after);
  // A page of people at a time (as Admin → People reads them), so the page stays small in a big organisation.
  const { people, next, cursorIgnored } = await listPeopleForAdmin(await getDb(), { search, ...(after ? { after } : {}) });
  const paged = Boolean(after) && !cursorIgnored;
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
      <p>
        <Link href="/admin/audit">Audit log</Link>: who did what and when — answers, declines, reassignments, starts, cancels, changes to people, groups and
        keys — filtered and downloaded as CSV.
      </p>
      <h2 id="people">People</h2>
      <form method="get" action="/admin#people" className="people-search" role="search" aria-label="Find people">
        <label className="field">
          <span>Find someone to mark away or back, by name or email</span>
          <input name="q" type="search" defaultValue={search} />
        </label>
        <button type="submit" className="secondary">
          Search
        </button>
        {search ? <Link href="/admin#people">Clear</Link> : null}
      </form>
      {cursorIgnored ? (
        <p role="status" className="muted">
          That page of people could not be found, so this is the first page.
        </p>
      ) : null}
      {people.length === 0 ? <p className="empty muted">{paged ? "Nobody more." : search ? `Nobody’s name or email contains “${search}”.` : "Nobody yet."}</p> : null}
      {people.length > 0 ? (
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
      ) : null}
      <PeoplePager shown={people.length} paged={paged} next={next} pageSize={PEOPLE_PAGE_SIZE} href={(cursor) => adminHref({ q: search, after: cursor })} />
    </section>
  );
}
