import { SHOWN_TEXT_LENGTH, shorten } from "@/lib/short-text";

/**
 * A text a person or an agent wrote, kept as typed (line breaks and all). A long one shows its start
 * and opens to the whole of it — a disclosure that works without JavaScript and says how long it is.
 */
export function LongText({ text, className = "pre" }: { text: string; className?: string }) {
  if (Array.from(text).length <= SHOWN_TEXT_LENGTH) return <p className={className}>{text}</p>;
  return (
    <details className="long-text">
      <summary>
        <span className={`${className} long-text-start`}>{shorten(text, SHOWN_TEXT_LENGTH)}</span>{" "}
        <span className="long-text-more">Show all {text.length.toLocaleString("en-US")} characters</span>
        <span className="long-text-less">Show less</span>
      </summary>
      <p className={className}>{text}</p>
    </details>
  );
}
