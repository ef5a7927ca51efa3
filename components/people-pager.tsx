import Link from "next/link";

/**
 * The way through a list of people read a page at a time (Admin and Admin → People): which page this
 * is, back to the first, and on to the next. `href` makes the address of a page (no cursor: the first).
 */
export function PeoplePager({ shown, paged, next, pageSize, href }: { shown: number; paged: boolean; next?: string; pageSize: number; href: (after?: string) => string }) {
  if (!paged && !next) return null;
  return (
    <nav className="inbox-meta" aria-label="Pages of people">
      <span>
        {paged ? (
          <>
            {shown} more, by name · <Link href={href()}>back to the first {pageSize}</Link>
          </>
        ) : (
          `The first ${shown}, by name`
        )}
      </span>
      {next ? <Link href={href(next)}>Next {pageSize} →</Link> : null}
    </nav>
  );
}
