import type { Metadata } from "next";
import Link from "next/link";
import { LocalTime } from "@/components/local-time";
import {
  AUDIT_CATEGORIES,
  AUDIT_CATEGORY_LABELS,
  AUDIT_PAGE_SIZE,
  type AuditLine,
  type AuditPage,
  auditSearch,
  loadAuditPage,
  parseAuditQuery,
  resolveAuditQuery,
} from "@/lib/audit";
import { getDb } from "@/lib/database";
import { getRegistry } from "@/lib/registry/configured";
import { requirePageUser } from "@/lib/server/session";

export const metadata: Metadata = { title: "Audit log" };

function Part({ part }: { part: { label: string; href: string | null } }) {
  return part.href ? <Link href={part.href}>{part.label}</Link> : <>{part.label}</>;
}

function Line({ line }: { line: AuditLine }) {
  return (
    <li className="audit-line" data-testid="audit-line" data-action={line.action}>
      <span className="audit-when muted small">
        <LocalTime at={line.at.toISOString()} format="second" />
      </span>
      <span className="audit-what">
        <strong className={line.actor.kind === "person" ? undefined : "muted"}>
          <Part part={{ label: line.actor.name, href: line.actor.href }} />
        </strong>{" "}
        {line.verb}
        {line.subject ? (
          <>
            {" "}
            <Part part={line.subject} />
          </>
        ) : null}
        {line.detail ? <span className="muted"> — {line.detail}</span> : null}
      </span>
    </li>
  );
}

/** A cursor from the address: a line id, or nothing when it is not one. */
function cursor(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(["admin"]);
  const params = await searchParams;
  const query = parseAuditQuery(params);
  const before = cursor(params.before);
  const db = await getDb();
  const resolved = await resolveAuditQuery(db, query);
  const registry = getRegistry();
  const workflowLabel = (name: string) => registry.entry(name)?.label ?? name;
  const page: AuditPage = resolved.ok ? await loadAuditPage(db, resolved.filter, { ...(before ? { before } : {}), workflowLabel }) : { lines: [], next: null };
  const filtered = Boolean(query.category || query.who || query.from || query.until);
  return (
    <section>
      <p className="muted">
        <Link href="/admin">Admin</Link> / Audit log
      </p>
      <h1>Audit log</h1>
      <p className="muted">
        Who did what and when, newest first: answers and declines, questions taken, given back and reassigned, runs started, cancelled and retried, asks by
        agent keys, changes to people and groups, and API keys made, used (at most a line a minute per key) and revoked. Each line is written with the change
        it records.
      </p>
      <form method="get" action="/admin/audit" className="sla-filters" aria-label="Filter the audit log">
        <label>
          What
          <select name="category" defaultValue={query.category ?? ""}>
            <option value="">Everything</option>
            {AUDIT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {AUDIT_CATEGORY_LABELS[category]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Who
          <input type="search" name="who" defaultValue={resolved.ok && resolved.who ? resolved.who.email : query.who} placeholder="Email or name" maxLength={200} />
        </label>
        <label>
          From (UTC day)
          <input type="date" name="from" defaultValue={query.from} />
        </label>
        <label>
          Until (UTC day)
          <input type="date" name="until" defaultValue={query.until} />
        </label>
        <button type="submit" className="secondary">
          Filter
        </button>
        {filtered ? <Link href="/admin/audit">Clear</Link> : null}
        {resolved.ok ? (
          <a href={`/admin/audit/export${auditSearch(query)}`} download>
            Download CSV
          </a>
        ) : null}
      </form>
      {resolved.ok ? null : (
        <p className="notice small" role="status" data-testid="audit-filter-problem">
          {resolved.problem}
          {resolved.matches.map((person, index) => (
            <span key={person.id}>
              {index === 0 ? " " : ", "}
              <Link href={`/admin/audit${auditSearch({ ...query, who: person.email })}`}>
                {person.name} ({person.email})
              </Link>
            </span>
          ))}
        </p>
      )}
      {resolved.ok && page.lines.length === 0 ? (
        <p className="empty muted">{before ? "Nothing older." : filtered ? "Nothing matches these filters." : "Nothing has been done yet."}</p>
      ) : null}
      {page.lines.length > 0 ? (
        <ol className="audit-log" aria-label="Audit log">
          {page.lines.map((line) => (
            <Line key={line.id} line={line} />
          ))}
        </ol>
      ) : null}
      {before || page.next ? (
        <nav className="inbox-meta" aria-label="Pages">
          <span>{before ? <Link href={`/admin/audit${auditSearch(query)}`}>back to the newest</Link> : `The ${page.lines.length} newest`}</span>
          {page.next ? <Link href={`/admin/audit${auditSearch(query, { before: String(page.next) })}`}>Older {AUDIT_PAGE_SIZE} →</Link> : null}
        </nav>
      ) : null}
    </section>
  );
}
