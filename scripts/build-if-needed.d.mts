/** Types for scripts/build-if-needed.mjs, for the TypeScript that starts servers the same way (benchmarks, tests). */
export declare const root: string;
export declare const nextBin: string;
export declare const buildDir: string;
export declare function buildIfNeeded(): void;
export declare function serverNodeOptions(env?: Record<string, string | undefined>): string;

/** The files and folders a build is made of: any change to one makes `npm start` build again. */
export declare const SOURCES: readonly string[];

/** Arguments every Parley server is started with (`next start …`): an idle connection is kept 65 s. */
export declare const SERVER_ARGUMENTS: readonly string[];
