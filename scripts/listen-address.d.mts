/** Types for scripts/listen-address.mjs, for the tests that ask it. */
export declare const DEMO_HOSTNAME: string;
export declare function listenAddress(
  env: Record<string, string | undefined>,
  args: readonly string[],
  ownName?: string,
): { args: string[]; message: string | null };
