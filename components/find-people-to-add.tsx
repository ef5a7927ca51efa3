import Link from "next/link";
import type { ComponentProps } from "react";
import type { PeopleToAdd } from "@/lib/groups";
import { AddToGroupForm } from "./add-to-group-form";

/**
 * The one people search of the groups pages: a GET form (the text, and the group unless the page is
 * one group's) whose results, at most twenty active people, each have an Add button for the group.
 * It works without JavaScript, and never lists everyone.
 */
export function FindPeopleToAdd({
  found,
  path,
  groups,
  limit,
  action,
}: {
  found: PeopleToAdd;
  /** Where the search form sends its text: the page it is on. */
  path: string;
  /** The groups to choose from; absent on one group's page, which adds to that group. */
  groups?: { id: string; name: string }[];
  /** The most people one search finds. */
  limit: number;
  action: ComponentProps<typeof AddToGroupForm>["action"];
}) {
  const { query, group, people, more } = found;
  return (
    <section id="add-people" aria-labelledby="add-people-heading">
      <h2 id="add-people-heading">{groups ? "Add people to a group" : `Add people to ${group?.name ?? "this group"}`}</h2>
      <form method="get" action={path} className="people-search" role="search" aria-label="Find people to add">
        <label className="field">
          <span>Name or email</span>
          <input name="q" type="search" defaultValue={query} maxLength={200} autoComplete="off" />
        </label>
        {groups ? (
          <label className="field">
            <span>Group</span>
            <select name="group" defaultValue={group?.id ?? ""}>
              <option value="">
                Choose a group…
              </option>
              {groups.map((each) => (
                <option key={each.id} value={each.id}>
                  {each.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <button type="submit" className="secondary">
          Find people
        </button>
      </form>
      {!query ? (
        <p className="muted">Type part of someone’s name or email to find them. Deactivated people are not offered.</p>
      ) : people.length === 0 ? (
        <p className="empty muted">Nobody active has “{query}” in their name or email.</p>
      ) : (
        <>
          {!group ? (
            <p role="alert" className="error-text">
              Choose a group to add them to, then search again.
            </p>
          ) : null}
          <table className="table stacks" aria-label="People found">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>{group ? `Add to ${group.name}` : "Add"}</th>
              </tr>
            </thead>
            <tbody>
              {people.map((person) => (
                <tr key={person.id} data-testid="person-found">
                  <td>
                    <Link href={`/admin/people/${person.id}`}>{person.name}</Link>
                    {person.away ? (
                      <>
                        {" "}
                        <span className="badge amber">Away</span>
                      </>
                    ) : null}
                  </td>
                  <td data-label="Email">{person.email}</td>
                  <td>
                    {group ? (
                      <AddToGroupForm action={action} groupId={group.id} groupName={group.name} personId={person.id} personName={person.name} inGroup={person.inGroup} />
                    ) : (
                      <span className="muted">Choose a group</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {more ? <p className="muted">The first {limit} people found, by name: type more of the name or email to narrow it down.</p> : null}
        </>
      )}
    </section>
  );
}
