/** A decoded email, for assertions: unfolded headers and each text part decoded to a string. */
export interface ParsedMail {
  headers: { name: string; value: string }[];
  header(name: string): string | undefined;
  text: string | undefined;
  html: string | undefined;
}

function splitHead(raw: string): { head: string; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  return end < 0 ? { head: raw, body: "" } : { head: raw.slice(0, end), body: raw.slice(end + 4) };
}

function parseHeaders(head: string) {
  // Unfold: a line starting with whitespace continues the previous header.
  return head
    .replace(/\r\n(?=[ \t])/g, "")
    .split("\r\n")
    .filter(Boolean)
    .map((line) => {
      const colon = line.indexOf(":");
      return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
    });
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r\n/g, "");
  for (let index = 0; index < soft.length; index++) {
    const character = soft[index]!;
    if (character === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(index + 1, index + 3))) {
      bytes.push(parseInt(soft.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(character, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch (encoding?.toLowerCase()) {
    case "base64":
      return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
    case "quoted-printable":
      return decodeQuotedPrintable(body);
    default:
      return body;
  }
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?…?=`, `=?UTF-8?Q?…?=`) in a header value. */
export function decodeHeaderWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BQ]\?[^?]*\?=)\s+(?==\?)/gi, "$1")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

/** Parses a single-part or multipart/alternative message as nodemailer sends it. */
export function parseMail(raw: string): ParsedMail {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const header = (name: string) => headers.find((entry) => entry.name.toLowerCase() === name.toLowerCase())?.value;
  const parts: { type: string; content: string }[] = [];

  const collect = (partHeaders: { name: string; value: string }[], partBody: string) => {
    const find = (name: string) => partHeaders.find((entry) => entry.name.toLowerCase() === name)?.value;
    const type = find("content-type") ?? "text/plain";
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      const sections = partBody.split(`--${boundary}`).slice(1);
      for (const section of sections) {
        if (section.startsWith("--")) break;
        const { head: sectionHead, body: sectionBody } = splitHead(section.replace(/^\r\n/, ""));
        collect(parseHeaders(sectionHead), sectionBody.replace(/\r\n$/, ""));
      }
    } else {
      parts.push({ type: type.toLowerCase(), content: decodeBody(partBody, find("content-transfer-encoding")) });
    }
  };
  collect(headers, body);

  return {
    headers,
    header,
    text: parts.find((part) => part.type.startsWith("text/plain"))?.content,
    html: parts.find((part) => part.type.startsWith("text/html"))?.content,
  };
}
