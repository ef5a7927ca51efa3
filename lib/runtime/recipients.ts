import type { Db } from "@/db/client";
import { findGroupsForRouting, findPeopleForRouting, type RoutedGroup, type RoutedPerson } from "@/db/queries/group-routing";
import { isUuid } from "@/lib/ids";
import { definitionError } from "./definition-errors";
import type { GroupRecipient, Recipient } from "./types";

/** Names a group as the recipient of a question, e.g. `candidates: () => [group("finance")]`. */
export function group(name: string): GroupRecipient {
  return { group: name };
}

/** Who a question goes to once away people, delegates and groups are taken into account. */
export interface ResolvedRecipients {
  /** The one person asked (their delegate, when they are away and named one); null for candidates only. */
  assigneeId: string | null;
  /** People any one of whom may answer; away people without a delegate are left out (all of them, when nobody is left). */
  candidateIds: string[];
  candidateGroupIds: string[];
  /** The one person asked, when the question went to their delegate instead. */
  delegatedFrom: string | null;
  /**
   * Set when nobody can take the question: `away` (those asked are away, with no delegate who is
   * not), or `unavailable` (those asked are deactivated, or the groups asked have nobody in them).
   */
  nobody: "away" | "unavailable" | null;
}

/** These people as a question is routed to them; an id that is not a user id names nobody. */
export function peopleForRouting(db: Db, ids: readonly string[]): Promise<RoutedPerson[]> {
  return findPeopleForRouting(db, ids.filter(isUuid));
}

/**
 * Resolves who a question is put to: a person away is replaced by the delegate they named (when that
 * delegate can take it), or left out; a deactivated person is left out; groups are named by their
 * ids, their members read live when they answer. Unknown people and groups are the asker's mistake.
 */
export async function resolveRecipients(db: Db, to: Recipient | readonly Recipient[]): Promise<ResolvedRecipients> {
  const named = Array.isArray(to) ? (to as readonly Recipient[]) : [to as Recipient];
  const personIds = [...new Set(named.filter((each): each is string => typeof each === "string"))];
  const groupNames = [...new Set(named.filter((each): each is GroupRecipient => typeof each !== "string").map((each) => each.group))];
  if (personIds.length === 0 && groupNames.length === 0) throw new Error("person.ask: there is no user (nobody was named).");
  const people = await peopleForRouting(db, personIds);
  const unknown = personIds.filter((id) => !people.some((person) => person.id === id));
  if (unknown.length > 0) throw new Error(`person.ask: there is no user ${unknown.join(", ")}.`);
  const groups = await findGroupsForRouting(db, groupNames);
  const missing = groupNames.filter((name) => !groups.some((each) => each.name === name.trim().toLowerCase()));
  if (missing.length > 0) throw definitionError(`it asks the group “${missing[0]}”, and there is no such group`);

  let anyAway = false;
  /** Who takes the question in this person's place, if anyone. */
  function taker(person: RoutedPerson): string | null {
    if (person.deactivated) return null;
    if (!person.away) return person.id;
    anyAway = true;
    return person.presentDelegateId;
  }
  const takers = personIds.map((id) => taker(people.find((person) => person.id === id)!)).filter((id): id is string => id !== null);
  const candidateIds = [...new Set(takers)];
  const groupsPresent = groups.some((each) => each.present > 0);
  if (groups.some((each) => each.away > 0)) anyAway = true;
  const single = typeof to === "string";
  const assigneeId = single ? (candidateIds[0] ?? to) : null;
  const nobody = candidateIds.length > 0 || groupsPresent ? null : anyAway ? "away" : "unavailable";
  return {
    assigneeId,
    // Nobody left: the question is still recorded (closed at once) with those it was meant for.
    candidateIds: candidateIds.length > 0 || groupsPresent ? candidateIds : personIds,
    candidateGroupIds: groups.map((each) => each.id),
    delegatedFrom: single && candidateIds[0] && candidateIds[0] !== to ? to : null,
    nobody,
  };
}

/** Who waits on a state's subscription, as {@link waitersOf} works it out. */
export interface Waiters {
  assigneeId: string | null;
  candidateIds: string[];
  candidateGroupIds: string[];
  /** The assignee meant, when the wait went to the delegate they named instead. */
  delegatedFrom: string | null;
  /** Set when nobody named can take it: `away`, or `unavailable` (deactivated, or empty groups). */
  nobody: "away" | "unavailable" | null;
}

/**
 * Who a state's subscription waits on, from the people and groups it names as they are now
 * (`people`, `groups`: read by {@link findPeopleForRouting} and {@link findGroupsForRouting}; extra
 * rows are ignored): its assignee and candidates, each away person replaced by the delegate they named
 * (when that delegate can take it) or left out, deactivated people left out, and its candidate groups
 * by id. When nobody named can take it, `nobody` says why (the lists are then kept as named, for the
 * record): an agent's question waiting there is closed with nothing at once; a flow's own wait has no
 * nothing to close with, and its deadline (`unfinished`) decides. A group that does not exist is a
 * definition error.
 */
export function waitersOf(
  assignee: string | null,
  candidates: readonly Recipient[],
  people: readonly RoutedPerson[],
  groups: readonly RoutedGroup[],
): Waiters {
  const named = [...new Set(candidates.filter((each): each is string => typeof each === "string"))];
  const personIds = [...new Set([...(assignee ? [assignee] : []), ...named])];
  const groupNames = [...new Set(candidates.filter((each): each is GroupRecipient => typeof each !== "string").map((each) => each.group.trim().toLowerCase()))];
  const missing = groupNames.find((name) => !groups.some((each) => each.name === name));
  if (missing !== undefined) {
    const written = candidates.find((each): each is GroupRecipient => typeof each !== "string" && each.group.trim().toLowerCase() === missing)!.group;
    throw definitionError(`it waits on the group “${written}”, and there is no such group`);
  }
  const waitedOn = groups.filter((each) => groupNames.includes(each.name));
  let anyAway = waitedOn.some((each) => each.away > 0);
  /** Who waits in this person's place: themselves, their delegate, or nobody. An id nobody has is kept as given. */
  const inPlaceOf = (id: string): string | null => {
    const person = people.find((each) => each.id === id);
    if (!person) return id;
    if (person.deactivated) return null;
    if (!person.away) return id;
    anyAway = true;
    return person.presentDelegateId;
  };
  const assigneeId = assignee ? inPlaceOf(assignee) : null;
  const candidateIds = [...new Set(named.map(inPlaceOf).filter((id): id is string => id !== null))];
  const someone = assigneeId !== null || candidateIds.length > 0 || waitedOn.some((each) => each.present > 0);
  const anyoneNamed = personIds.length > 0 || waitedOn.length > 0;
  if (!someone && anyoneNamed) {
    return { assigneeId: assignee, candidateIds: named, candidateGroupIds: waitedOn.map((each) => each.id), delegatedFrom: null, nobody: anyAway ? "away" : "unavailable" };
  }
  return {
    assigneeId,
    candidateIds,
    candidateGroupIds: waitedOn.map((each) => each.id),
    delegatedFrom: assignee && assigneeId !== null && assigneeId !== assignee ? assignee : null,
    nobody: null,
  };
}
