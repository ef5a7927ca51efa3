// Preloaded into `next start` by the inbox benchmark (`node --import …`): times each request the
// load tool marks with an `x-bench-request` header, inside the server process, from the moment Node
// hands the parsed request to the server ('request') to the moment the last byte of the response has
// been written ('finish'), and sends { benchRequest, serverMs, cpuMs, status } to the parent over IPC.
// cpuMs is the whole process's CPU time (user + system) over the request: the page's own cost when
// requests come one at a time, anything else the process did meanwhile when they overlap.
// Pages stream, so a Server-Timing header (sent with the first byte) could not carry this.
import http from "node:http";
import { performance } from "node:perf_hooks";

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitTimed(event, request, response) {
  if (event === "request" && process.send) {
    const id = request.headers["x-bench-request"];
    if (typeof id === "string") {
      const started = performance.now();
      const cpu = process.cpuUsage();
      response.once("finish", () => {
        const used = process.cpuUsage(cpu);
        process.send?.({ benchRequest: id, serverMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000, status: response.statusCode });
      });
    }
  }
  return emit.apply(this, arguments);
};
