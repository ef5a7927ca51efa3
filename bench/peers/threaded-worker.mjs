// A contender's thread (see threaded.ts): tsx's loader is registered in this thread, then the
// TypeScript side is loaded.
import { register } from "tsx/esm/api";

register();
await import("./threaded-worker.ts");
