/**
 * A small linear congruential generator: the same seed gives the same sequence, so the demo data
 * is the same on every start and a failing property test replays from its seed.
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
}
