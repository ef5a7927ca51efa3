import { type IncomingMessage, Server, type ServerResponse } from "node:http";
import { Server as NetServer, type Socket } from "node:net";

/**
 * This process's HTTP connections and the answers under way on each, watched so that a stopping
 * process can close them without cutting an answer short (lib/server/shutdown.ts). Next.js, told to
 * leave the signals to Parley, keeps listening and keeps every keep-alive connection open: a client
 * would go on sending requests to a process about to exit, and the exit would cut the ones under way
 * — an answer taken, its reply lost. Once {@link closeHttpConnections} is called, no connection is
 * taken any more, every answer not yet begun says `Connection: close` (the connection closes once it
 * is written out), and a connection with nothing under way closes at once, or as soon as its answer
 * under way ends.
 */
interface Connections {
  /** The HTTP servers seen taking a connection or a request: the ones to stop listening. */
  servers: Set<Server>;
  /** Each open connection, with the answers under way on it. */
  sockets: Map<Socket, Set<ServerResponse>>;
  /** Set as the process begins to stop. */
  closing: boolean;
  /** Called whenever a connection closes. */
  changed: Set<() => void>;
}

const CONNECTIONS_KEY = Symbol.for("parley.http-connections");
const INSTALLED = Symbol.for("parley.http-connections.installed");
type GlobalWithConnections = typeof globalThis & { [CONNECTIONS_KEY]?: Connections };

/** One state however many copies of this module Next.js bundles. */
function state(): Connections {
  const store = globalThis as GlobalWithConnections;
  return (store[CONNECTIONS_KEY] ??= { servers: new Set(), sockets: new Map(), closing: false, changed: new Set() });
}

/**
 * Starts watching every HTTP server of this process (those made before too): each connection, each
 * request and when its answer ends. Called once at start, before the first request.
 */
export function watchHttpConnections(): void {
  const prototype = Server.prototype as Server & { [INSTALLED]?: boolean };
  if (prototype[INSTALLED]) return;
  prototype[INSTALLED] = true;
  const emit = prototype.emit;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    if (event === "connection") watchSocket(this, args[0] as Socket);
    else if (event === "request") watchAnswer(this, args[0] as IncomingMessage, args[1] as ServerResponse);
    // An upgraded connection (a WebSocket) leaves HTTP: not one to wait for.
    else if (event === "upgrade") state().sockets.delete((args[0] as IncomingMessage).socket);
    return (emit as (...all: unknown[]) => boolean).apply(this, [event, ...args]);
  } as typeof prototype.emit;
}

function watchSocket(server: Server, socket: Socket): Set<ServerResponse> {
  const current = state();
  if (!current.servers.has(server)) {
    current.servers.add(server);
    if (current.closing) stopListening(server);
  }
  let answers = current.sockets.get(socket);
  if (!answers) {
    answers = new Set();
    current.sockets.set(socket, answers);
    socket.once("close", () => {
      current.sockets.delete(socket);
      for (const changed of [...current.changed]) changed();
    });
  }
  return answers;
}

function watchAnswer(server: Server, request: IncomingMessage, response: ServerResponse): void {
  const current = state();
  const socket = request.socket;
  const answers = watchSocket(server, socket);
  answers.add(response);
  if (current.closing) closeAfter(response);
  // Emitted once the answer is written out (or the connection broke).
  response.once("close", () => {
    answers.delete(response);
    if (current.closing) closeIfIdle(socket);
  });
}

/** An answer not begun yet says `Connection: close`: Node.js closes the connection once it is written out. */
function closeAfter(response: ServerResponse): void {
  if (!response.headersSent) response.setHeader("connection", "close");
}

/**
 * Closes a connection with no answer under way, once what was written to it is sent. A request
 * arriving on it from now on is never read: its client sees the connection reset, and nothing of it
 * was done, so sending it elsewhere is safe.
 */
function closeIfIdle(socket: Socket): void {
  if ((state().sockets.get(socket)?.size ?? 0) > 0 || socket.destroyed) return;
  socket.destroySoon();
}

/**
 * Stops listening. Not `server.close()`: Node.js's HTTP server then destroys its idle connections at
 * once, with whatever of a finished answer was still waiting to be sent; {@link closeIfIdle} lets that go first.
 */
function stopListening(server: Server): void {
  if (server.listening) NetServer.prototype.close.call(server);
}

/**
 * Begins closing this process's HTTP connections: no new connection is taken, answers not begun say
 * `Connection: close`, and each connection closes as soon as nothing is under way on it.
 */
export function closeHttpConnections(): void {
  const current = state();
  if (current.closing) return;
  current.closing = true;
  for (const server of current.servers) stopListening(server);
  for (const [socket, answers] of current.sockets) {
    for (const response of answers) closeAfter(response);
    closeIfIdle(socket);
  }
}

/** Resolves once every HTTP connection this process was watching has closed: every answer under way written out. */
export function httpConnectionsClosed(): Promise<void> {
  const current = state();
  return new Promise((resolve) => {
    const check = () => {
      if (current.sockets.size > 0) return;
      current.changed.delete(check);
      resolve();
    };
    current.changed.add(check);
    check();
  });
}

/** How many HTTP connections are open, and how many answers are under way on them. */
export function openHttpConnections(): { connections: number; answers: number } {
  let answers = 0;
  for (const each of state().sockets.values()) answers += each.size;
  return { connections: state().sockets.size, answers };
}
