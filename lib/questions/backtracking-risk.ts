/**
 * Why a regular expression could take very long to check on a short answer, or undefined when it
 * has none of the shapes that do: a group repeated without bound (`*`, `+`, `{n,}`) that itself holds
 * something repeated without bound (`(a+)+`, `(\w+\s?)*`, `(.*,)+`) — unless the group starts with a
 * fixed character that delimits each repetition (`(-[a-z]+)*`) — or a back-reference. JavaScript's
 * engine backtracks, so such a pattern from outside (an API caller's schema) could hold a server
 * for seconds per answer; refusing these shapes keeps the common patterns (`^[A-Z]{3}$`,
 * `^(foo|bar)+$`, `^[a-z]+(-[a-z]+)*$`) and refuses the classic catastrophic ones. Overlapping
 * alternatives repeated without bound (`(a|aa)+`) are not detected.
 */
export function backtrackingRisk(source: string): string | undefined {
  // Each open group: where its content starts, and whether anything inside it repeats without bound.
  const groups: { start: number; unbounded: boolean }[] = [{ start: 0, unbounded: false }];
  let index = 0;
  /** The repetition after an atom ending at `at`: how many characters it spans, and whether it is unbounded. */
  const quantifierAt = (at: number): { length: number; unbounded: boolean } => {
    const char = source[at];
    if (char === "*" || char === "+") return { length: source[at + 1] === "?" ? 2 : 1, unbounded: true };
    if (char === "?") return { length: source[at + 1] === "?" ? 2 : 1, unbounded: false };
    if (char === "{") {
      const match = /^\{(\d+)(,(\d*))?\}\??/.exec(source.slice(at));
      if (match) return { length: match[0].length, unbounded: match[2] !== undefined && match[3] === "" };
    }
    return { length: 0, unbounded: false };
  };
  const afterAtom = (at: number): number => {
    const quantifier = quantifierAt(at);
    if (quantifier.unbounded) groups.at(-1)!.unbounded = true;
    return at + quantifier.length;
  };
  while (index < source.length) {
    const char = source[index]!;
    if (char === "\\") {
      const next = source[index + 1] ?? "";
      if (/[1-9]/.test(next) || (next === "k" && source[index + 2] === "<")) return "it refers back to a group (\\1, \\k<name>), which can take very long to check";
      // An escape is one atom: \d, \u{1F600}, \x41, \p{L}…
      const escape = /^\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|c[A-Za-z]|.)/su.exec(source.slice(index));
      index = afterAtom(index + (escape?.[0].length ?? 2));
      continue;
    }
    if (char === "[") {
      index = afterAtom(classEnd(source, index));
      continue;
    }
    if (char === "(") {
      const opening = /^\(\?(:|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(source.slice(index));
      index += opening ? opening[0].length : 1;
      groups.push({ start: index, unbounded: false });
      continue;
    }
    if (char === ")") {
      const group = groups.length > 1 ? groups.pop()! : { start: 0, unbounded: false };
      const quantifier = quantifierAt(index + 1);
      if (quantifier.unbounded && group.unbounded && !isDelimited(source.slice(group.start, index))) {
        return `a group that repeats without bound holds something that also repeats without bound (like (a+)+), which can take very long to check`;
      }
      if (quantifier.unbounded || group.unbounded) groups.at(-1)!.unbounded = true;
      index += 1 + quantifier.length;
      continue;
    }
    index = afterAtom(index + 1);
  }
  return undefined;
}

/** The index just after the character class opening at `at`. */
function classEnd(source: string, at: number): number {
  let end = at + 1;
  if (source[end] === "^") end++;
  if (source[end] === "]") end++;
  while (end < source.length && source[end] !== "]") end += source[end] === "\\" ? 2 : 1;
  return end + 1;
}

/**
 * Whether each repetition of a group is marked off by one fixed punctuation character — its first or
 * its last — that nothing else in the group can match (`-[a-z]+`, `[a-z0-9]+\.`): then an answer splits
 * into repetitions in one way only, and checking it cannot blow up.
 */
function isDelimited(content: string): boolean {
  if (content.includes("|")) return false;
  const leading = /^(\\[^\w\s]|[^\\()[\]{}|.*+?^$\w\s])(?![*+?{])/u.exec(content);
  const trailing = /(\\[^\w\s]|[^\\()[\]{}|.*+?^$\w\s])$/u.exec(content);
  const candidates: [string, string][] = [];
  if (leading) candidates.push([leading[1]!.slice(-1), content.slice(leading[0].length)]);
  if (trailing && !/\\\\$/.test(content.slice(0, -trailing[0].length + 1))) candidates.push([trailing[1]!.slice(-1), content.slice(0, -trailing[0].length)]);
  return candidates.some(([delimiter, rest]) => !canMatch(rest, delimiter));
}

/** Whether anything in `pattern` might match the punctuation character `char`. Errs on "might". */
function canMatch(pattern: string, char: string): boolean {
  let index = 0;
  while (index < pattern.length) {
    const current = pattern[index]!;
    if (current === ".") return true;
    if (current === "\\") {
      const escaped = pattern[index + 1] ?? "";
      if (/[WSDBpP]/.test(escaped) || escaped === char) return true;
      index += 2;
      continue;
    }
    if (current === "[") {
      const end = classEnd(pattern, index);
      const body = pattern.slice(index + 1, end - 1);
      const negated = body.startsWith("^");
      const inner = negated ? body.slice(1) : body;
      // A negated class, a broad escape or a range that spans it might match it; so might the character itself.
      if (negated || /\\[WSDpP]/.test(inner) || rangeSpans(inner, char)) return true;
      if (inner.replace(/([^\\])-([^\\\]])/gu, "").includes(char)) return true;
      index = end;
      continue;
    }
    if (current === char) return true;
    index++;
  }
  return false;
}

/** Whether a range in a class body (`a-z`, `!-/`) takes in `char`. */
function rangeSpans(body: string, char: string): boolean {
  const code = char.codePointAt(0)!;
  for (const match of body.matchAll(/([^\\])-([^\\\]])/gu)) {
    if (match[1]!.codePointAt(0)! <= code && code <= match[2]!.codePointAt(0)!) return true;
  }
  return false;
}
