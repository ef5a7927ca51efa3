import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface ReceivedMail {
  mailFrom: string;
  recipients: string[];
  /** The message as sent after DATA, dot-stuffing undone, CRLF line ends. */
  data: string;
}

export interface SmtpSinkOptions {
  /** Advertise AUTH PLAIN and record the credentials given. */
  auth?: boolean;
  /** Answer RCPT TO for these addresses with 550. */
  rejectRecipients?: string[];
  /** Answer MAIL FROM with this reply instead of 250, e.g. "451 4.3.0 try again later". */
  mailFromReply?: string;
}

/**
 * A small SMTP server on 127.0.0.1 that speaks just enough (EHLO/HELO, AUTH PLAIN, MAIL FROM, RCPT TO,
 * DATA, RSET, NOOP, QUIT) and records every message. Anything else, STARTTLS included, gets 502.
 */
export async function startSmtpSink(options: SmtpSinkOptions = {}) {
  const messages: ReceivedMail[] = [];
  const logins: { user: string; password: string }[] = [];
  const commands: string[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let mode: "command" | "data" | "auth" = "command";
    let mailFrom = "";
    let recipients: string[] = [];
    let dataLines: string[] = [];

    const recordLogin = (base64: string) => {
      const [, user = "", password = ""] = Buffer.from(base64, "base64").toString("utf8").split("\0");
      logins.push({ user, password });
      reply("235 2.7.0 Authentication successful");
    };

    const onLine = (line: string) => {
      if (mode === "data") {
        if (line === ".") {
          messages.push({ mailFrom, recipients, data: dataLines.join("\r\n") });
          dataLines = [];
          mode = "command";
          reply("250 2.0.0 queued");
        } else {
          dataLines.push(line.startsWith(".") ? line.slice(1) : line);
        }
        return;
      }
      if (mode === "auth") {
        mode = "command";
        recordLogin(line);
        return;
      }
      commands.push(line);
      const verb = line.split(" ", 1)[0]!.toUpperCase();
      const argument = line.slice(verb.length).trim();
      switch (verb) {
        case "EHLO":
          reply("250-sink.test");
          reply("250-8BITMIME");
          if (options.auth) reply("250-AUTH PLAIN");
          reply("250 SIZE 10485760");
          break;
        case "HELO":
          reply("250 sink.test");
          break;
        case "AUTH": {
          const [mechanism, initial] = argument.split(" ");
          if (!options.auth || mechanism?.toUpperCase() !== "PLAIN") reply("504 5.5.4 unrecognised authentication type");
          else if (initial) recordLogin(initial);
          else {
            mode = "auth";
            reply("334 ");
          }
          break;
        }
        case "MAIL":
          if (options.mailFromReply) {
            reply(options.mailFromReply);
            break;
          }
          mailFrom = /<([^>]*)>/.exec(argument)?.[1] ?? "";
          recipients = [];
          reply("250 2.1.0 ok");
          break;
        case "RCPT": {
          const address = /<([^>]*)>/.exec(argument)?.[1] ?? "";
          if (options.rejectRecipients?.includes(address)) reply("550 5.1.1 no such user");
          else {
            recipients.push(address);
            reply("250 2.1.5 ok");
          }
          break;
        }
        case "DATA":
          if (recipients.length === 0) reply("554 5.5.1 no valid recipients");
          else {
            mode = "data";
            reply("354 end data with <CR><LF>.<CR><LF>");
          }
          break;
        case "RSET":
          mailFrom = "";
          recipients = [];
          reply("250 2.0.0 ok");
          break;
        case "NOOP":
          reply("250 2.0.0 ok");
          break;
        case "QUIT":
          reply("221 2.0.0 bye");
          socket.end();
          break;
        default:
          reply("502 5.5.2 command not implemented");
      }
    };

    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let end: number;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        onLine(line);
      }
    });
    reply("220 sink.test ESMTP test sink");
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    messages,
    logins,
    commands,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
