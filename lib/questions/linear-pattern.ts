import { RE2JS } from "re2js";

/** A regular expression checked in time bounded by the text's length, whatever the pattern. */
export interface LinearPattern {
  /** The pattern as it was written (ECMA-262, Unicode). */
  readonly source: string;
  /** Whether the pattern matches anywhere in `text`, as `RegExp.prototype.test` with the `u` flag would say. */
  test(text: string): boolean;
}

/** A pattern ready to run, or why it cannot run in linear time (a sentence for "… cannot be used: <why>."). */
export type LinearPatternResult = { ok: true; pattern: LinearPattern } | { ok: false; reason: string };

/** The most times RE2 repeats one thing (`{1000}`); past it a pattern's program would grow without bound. */
const MAX_REPEAT = 1000;

/**
 * A JSON Schema `pattern` (ECMA-262 with the `u` flag: Unicode, unanchored, no flags) compiled for
 * RE2's linear-time engine, so that no pattern and answer from outside can hold the server: a check
 * costs time in proportion to the answer's length, with no backtracking (`^(a|a)+$` included).
 *
 * The pattern is translated where the two dialects read the same text differently — `.` and `\s`/`\S`
 * take ECMA's line terminators and Unicode spaces, `\u…` and `\cX` become RE2 escapes, `[]` and `[^]`
 * mean nothing and anything — so an answer is taken exactly when JavaScript's engine would take it.
 * What RE2 cannot run is refused with the reason: look-arounds, back-references, flags inside the
 * pattern, a repetition above {@link MAX_REPEAT}, and Unicode properties it does not know.
 *
 * The pattern must already compile as `new RegExp(source, "u")` (the caller checks, to report
 * JavaScript's own syntax error); compiling never runs it.
 */
export function linearPattern(source: string): LinearPatternResult {
  let translated: string;
  try {
    translated = new Translation(source).run();
  } catch (error) {
    if (error instanceof CannotRun) return { ok: false, reason: error.message };
    throw error;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translated);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, "") : "it does not compile";
    if (/invalid repeat count/.test(detail)) return { ok: false, reason: `it repeats something more than ${MAX_REPEAT} times in all, which Parley's linear-time pattern engine does not run` };
    return { ok: false, reason: `Parley's linear-time pattern engine cannot run it (${detail})` };
  }
  return { ok: true, pattern: { source, test: (text) => compiled.test(text) } };
}

class CannotRun extends Error {}

/** ECMA-262's white space and line terminators: what its `\s` takes (RE2's `\s` is ASCII only). */
const WHITE_SPACE = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** What ECMA's `.` takes without the `s` flag: anything but a line terminator (RE2's excludes `\n` only). */
const ANY_BUT_LINE_TERMINATORS = "[^\\n\\r\\x{2028}\\x{2029}]";
/** Characters that stand for themselves after a backslash in ECMA's Unicode mode. */
const SYNTAX_CHARACTERS = new Set([..."^$\\.*+?()[]{}|/-"]);

const LOOK_AROUND = "it looks ahead or behind ((?=…), (?!…), (?<=…), (?<!…)), which Parley's linear-time pattern engine cannot run; write the pattern without it";
const BACK_REFERENCE = "it refers back to a group (\\1, \\k<name>), which Parley's linear-time pattern engine cannot run; write the pattern without it";

/**
 * ECMA-262 general categories by their long names and aliases, as RE2 names them. RE2 knows the one-
 * and two-letter names and scripts by their long names; ECMA's binary properties (`\p{Alphabetic}`)
 * it does not know, and those are refused.
 */
const GENERAL_CATEGORIES: Record<string, string> = {
  Letter: "L", Cased_Letter: "LC", Uppercase_Letter: "Lu", Lowercase_Letter: "Ll", Titlecase_Letter: "Lt", Modifier_Letter: "Lm", Other_Letter: "Lo",
  Mark: "M", Combining_Mark: "M", Nonspacing_Mark: "Mn", Spacing_Mark: "Mc", Enclosing_Mark: "Me",
  Number: "N", Decimal_Number: "Nd", digit: "Nd", Letter_Number: "Nl", Other_Number: "No",
  Punctuation: "P", punct: "P", Connector_Punctuation: "Pc", Dash_Punctuation: "Pd", Open_Punctuation: "Ps", Close_Punctuation: "Pe",
  Initial_Punctuation: "Pi", Final_Punctuation: "Pf", Other_Punctuation: "Po",
  Symbol: "S", Math_Symbol: "Sm", Currency_Symbol: "Sc", Modifier_Symbol: "Sk", Other_Symbol: "So",
  Separator: "Z", Space_Separator: "Zs", Line_Separator: "Zl", Paragraph_Separator: "Zp",
  Other: "C", Control: "Cc", cntrl: "Cc", Format: "Cf", Surrogate: "Cs", Private_Use: "Co", Unassigned: "Cn",
};
const SHORT_CATEGORIES = new Set(Object.values(GENERAL_CATEGORIES));

/** One reading of an ECMA pattern, emitting the same language in RE2's syntax. */
class Translation {
  private index = 0;
  private readonly out: string[] = [];

  constructor(private readonly source: string) {}

  run(): string {
    while (this.index < this.source.length) this.atom();
    return this.out.join("");
  }

  private get char(): string {
    return String.fromCodePoint(this.source.codePointAt(this.index)!);
  }

  private atom(): void {
    const char = this.char;
    switch (char) {
      case "\\":
        this.out.push(this.escape(false));
        return;
      case "[":
        this.out.push(this.characterClass());
        return;
      case "(":
        this.out.push(this.groupOpening());
        return;
      case ".":
        this.index++;
        this.out.push(ANY_BUT_LINE_TERMINATORS);
        return;
      case "{": {
        const quantifier = /^\{(\d+)(?:,(\d*))?\}/.exec(this.source.slice(this.index));
        // The caller compiled the pattern in Unicode mode, where a `{` is only ever a quantifier.
        if (!quantifier) throw new CannotRun("it has a { that is not a repetition such as {2,5}; write \\{ for the character");
        if (Number(quantifier[1]) > MAX_REPEAT || Number(quantifier[2] || 0) > MAX_REPEAT) {
          throw new CannotRun(`it repeats something more than ${MAX_REPEAT} times (${quantifier[0]}), which Parley's linear-time pattern engine does not run`);
        }
        this.index += quantifier[0].length;
        this.out.push(quantifier[0]);
        return;
      }
      default:
        this.index += char.length;
        // `)`, `|`, `^`, `$` and the quantifiers mean the same in both; anything else is itself.
        this.out.push(char);
    }
  }

  private groupOpening(): string {
    const rest = this.source.slice(this.index);
    if (/^\(\?(=|!|<=|<!)/.test(rest)) throw new CannotRun(LOOK_AROUND);
    const named = /^\(\?<[^>]*>/.exec(rest);
    if (named) {
      // A name only matters to captures, which a yes-or-no check never reads.
      this.index += named[0].length;
      return "(";
    }
    if (rest.startsWith("(?:")) {
      this.index += 3;
      return "(?:";
    }
    if (rest.startsWith("(?")) throw new CannotRun("it changes flags inside the pattern ((?i:…)), which Parley does not run; write the cases out, e.g. [Aa]");
    this.index++;
    return "(";
  }

  /** The class opening here, in RE2's syntax. */
  private characterClass(): string {
    this.index++;
    const negated = this.source[this.index] === "^";
    if (negated) this.index++;
    const items: string[] = [];
    while (this.index < this.source.length && this.source[this.index] !== "]") {
      const char = this.char;
      if (char === "\\") items.push(this.escape(true));
      else {
        this.index += char.length;
        // `-` keeps its meaning (a range, or itself at an edge, alike in both); the rest is literal.
        items.push(char === "-" ? "-" : literal(char));
      }
    }
    this.index++;
    // ECMA's `[]` matches nothing and `[^]` anything; RE2 would read a `]` straight after `[` as itself.
    if (items.length === 0) return negated ? "[\\x{0}-\\x{10FFFF}]" : "[^\\x{0}-\\x{10FFFF}]";
    return `[${negated ? "^" : ""}${items.join("")}]`;
  }

  /** The escape starting here, in RE2's syntax (a class item when `inClass`). */
  private escape(inClass: boolean): string {
    const rest = this.source.slice(this.index);
    const next = rest[1] ?? "";
    const take = (length: number, re2: string): string => {
      this.index += length;
      return re2;
    };
    if ("dDwW".includes(next)) return take(2, `\\${next}`);
    if (next === "b") return take(2, inClass ? "\\x{08}" : "\\b");
    if (next === "B") return take(2, "\\B");
    if (next === "s") return take(2, inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`);
    if (next === "S") {
      if (inClass) throw new CannotRun("it uses \\S inside […], which Parley's linear-time pattern engine cannot combine; write [^\\s…] or \\S outside the brackets");
      return take(2, `[^${WHITE_SPACE}]`);
    }
    if ("tnvfr".includes(next)) return take(2, `\\${next}`);
    if (/^[1-9]/.test(next) || next === "k") throw new CannotRun(BACK_REFERENCE);
    if (next === "0") return take(2, "\\x{0}");
    if (next === "c") return take(3, codePoint((rest.charCodeAt(2) % 32)));
    if (next === "x") return take(4, codePoint(Number.parseInt(rest.slice(2, 4), 16)));
    if (next === "u") {
      const braced = /^\\u\{([0-9a-fA-F]+)\}/.exec(rest);
      if (braced) return take(braced[0].length, codePoint(Number.parseInt(braced[1]!, 16)));
      const high = Number.parseInt(rest.slice(2, 6), 16);
      const pair = /^\\u[0-9a-fA-F]{4}\\u([dD][c-fC-F][0-9a-fA-F]{2})/.exec(rest);
      // In Unicode mode a surrogate pair written as two escapes is one character.
      if (high >= 0xd800 && high <= 0xdbff && pair) return take(12, codePoint((high - 0xd800) * 0x400 + (Number.parseInt(pair[1]!, 16) - 0xdc00) + 0x10000));
      return take(6, codePoint(high));
    }
    if (next === "p" || next === "P") {
      const property = /^\\[pP]\{([^}]*)\}/.exec(rest)!;
      return take(property[0].length, `\\${next}{${unicodeProperty(property[1]!)}}`);
    }
    // An identity escape: in Unicode mode only a syntax character (or `-` in a class) may follow.
    const escaped = String.fromCodePoint(rest.codePointAt(1)!);
    if (SYNTAX_CHARACTERS.has(escaped)) return take(1 + escaped.length, `\\${escaped}`);
    throw new CannotRun(`it has the escape \\${escaped}, which Parley's linear-time pattern engine does not read`);
  }
}

/** A character as RE2 reads it literally inside or outside a class. */
function literal(char: string): string {
  return /^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(char) ? `\\${char}` : char;
}

function codePoint(value: number): string {
  return `\\x{${value.toString(16).toUpperCase()}}`;
}

/** An ECMA `\p{…}` body as RE2 names the same property. */
function unicodeProperty(body: string): string {
  const [name, value] = body.includes("=") ? (body.split("=") as [string, string]) : [undefined, body];
  if (name === "Script" || name === "sc") return value;
  const category = GENERAL_CATEGORIES[value] ?? (SHORT_CATEGORIES.has(value) ? value : undefined);
  if ((name === undefined || name === "General_Category" || name === "gc") && category !== undefined) return category;
  if (name === undefined && value === "Any") return "Any";
  throw new CannotRun(`it uses \\p{${body}}, a Unicode property Parley's linear-time pattern engine does not know; use a general category or a script, such as \\p{L} or \\p{Script=Latin}`);
}
