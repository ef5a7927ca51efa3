import config from "@/parley.config";
import { createRegistry, type Registry } from "./registry";

let registry: Registry | undefined;

/** This Parley's registry, built from `parley.config.ts` once (a mistake there throws, with its fix). */
export function getRegistry(): Registry {
  registry ??= createRegistry(config);
  return registry;
}
