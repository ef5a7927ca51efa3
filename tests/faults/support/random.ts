/** A seeded random source, so a failing run can be replayed with the seed it printed. */
export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** One of `items`. */
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: small, fast and good enough to scatter faults. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** `PARLEY_FAULT_SEED` when given (to replay a run), else a fresh seed; printed either way. */
export function faultRandom(label: string): Random {
  const given = process.env.PARLEY_FAULT_SEED?.trim();
  const seed = given ? Number(given) >>> 0 : Math.floor(Math.random() * 2 ** 32);
  console.log(`${label}: seed ${seed} (replay with PARLEY_FAULT_SEED=${seed})`);
  return seededRandom(seed);
}
