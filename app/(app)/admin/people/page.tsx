import type { Metadata } from "next";
import Link from "next/link";
import { PeoplePager } from "@/components/people-pager";
import { AddPersonForm } from "@/components/add-person-form";
import { getDb } from "@/lib/database";
import { listGroups } from "@/lib/groups";
import { listPeopleForAdmin, PEOPLE_PAGE_SIZE, PERSON_NAME_MAX } from "@/lib/people";
import { formatDuration, formatUtc } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { addPersonAction } from "./actions";

export const metadata: Metadata = { title: "People" };

function single(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value)?.trim().slice(0, 200) ?? "";
}

/** The People page's address for a search and a page. */
function peopleHref(params: { q?: string; after?: string }): string {
  const query = new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1])));
  return query.size > 0 ? `/admin/people?${query}` : "/admin/people";
}

export default async function PeoplePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(["admin"]);
  const params = await searchParams;
  const search = single(params.q);
  const after = single(params.after);
  const db = await getDb();
  const [{ people, next, cursorIgnored }, groups] = await Promise.all([listPeopleForAdmin(db, { search, ...(after ? { after } : {}) }), listGroups(db)]);
  const paged = Boolean(after) && !cursorIgnored;
  const now = new Date().getTime();
  return (
    <section>
      <p className="muted">
        <Link href="/admin">Admin</Link> / People
      </p>
      <h1>People</h1>
      <p>
        Everyone who signs in to Parley. Open a person to change their roles and groups, make a new invite link, or deactivate them. Teams are on{" "}
        <Link href="/admin/groups">Groups</Link>.
      </p>
      <form method="get" action="/admin/people" className="people-search" role="search">
        <label className="field">
          <span>Search by name or email</span>
          <input name="q" type="search" defaultValue={search} />
        </label>
        <button type="submit" className="secondary">
          Search
        </button>
        {search ? <Link href="/admin/people">Clear</Link> : null}
      </form>
      {cursorIgnored ? (
        <p role="status" className="muted">
          That page of people could not be found, so this is the first page.
        </p>
      ) : null}
      {people.length === 0 ? (
        <p className="empty muted">{paged ? "Nobody more." : search ? `Nobody’s name or email contains “${search}”.` : "Nobody yet."}</p>
      ) : (
        <table className="table stacks" aria-label="People">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Roles</th>
              <th>Groups</th>
              <th>Status</th>
              <th>Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {people.map((person) => (
              <tr key={person.id} data-testid="person-row">
                <td>
                  <Link href={`/admin/people/${person.id}`}>{person.name}</Link>
                </td>
                <td data-label="Email">{person.email}</td>
                <td data-label="Roles">{person.roles.join(", ") || <span className="muted">none</span>}</td>
                <td data-label="Groups">{person.groups.map((group) => group.name).join(", ") || <span className="muted">none</span>}</td>
                <td data-label="Status">
                  {person.deactivatedAt ? (
                    <span className="badge status-failed">Deactivated</span>
                  ) : person.away ? (
                    <span className="badge amber">Away</span>
                  ) : (
                    <span className="badge">Active</span>
                  )}
                </td>
                <td data-label="Last sign-in">
                  {person.lastSignedInAt ? (
                    <time dateTime={person.lastSignedInAt.toISOString()} title={formatUtc(person.lastSignedInAt)}>
                      {formatDuration(now - person.lastSignedInAt.getTime())} ago
                    </time>
                  ) : (
                    <span className="muted">never</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PeoplePager shown={people.length} paged={paged} next={next} pageSize={PEOPLE_PAGE_SIZE} href={(cursor) => peopleHref({ q: search, after: cursor })} />
      <h2>Add a person</h2>
      <p className="muted">They get a one-time invite link, valid for 7 days, to set their password and sign in. It is emailed to them when email is configured, and shown here once to hand over.</p>
      <AddPersonForm groups={groups.map((group) => ({ id: group.id, name: group.name }))} nameMaxLength={PERSON_NAME_MAX} action={addPersonAction} />
    </section>
  );
}
