/** Types for scripts/dependency-patches.mjs, for the TypeScript that checks the patches before serving (lib/startup.ts, tests). */
export interface DependencyPatch {
  /** The patch file, from the project's root: `patches/<name>+<version>.patch`. */
  readonly patch: string;
  /** What it fixes, with the upstream issues. */
  readonly fixes: string;
  /** The files it changes, from the project's root. */
  readonly files: readonly string[];
  /** Text each of those files holds once the patch is applied. */
  readonly patchedTexts: readonly string[];
}
export interface MissingDependencyPatch {
  readonly patch: string;
  readonly fixes: string;
  /** The first of its files found missing or without its patched text. */
  readonly file: string;
}
export declare const DEPENDENCY_PATCHES: readonly DependencyPatch[];
export declare function missingDependencyPatches(root: string): MissingDependencyPatch[];
export declare function describeMissingDependencyPatches(missing: readonly MissingDependencyPatch[]): string | null;
