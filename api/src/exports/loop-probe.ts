/** Test helper (issue 12): how long the event loop was held while some work ran. */

/** Runs `work` while a timer ticks; returns its result and the longest gap between ticks (ms). */
export async function longestBlock<T>(work: () => Promise<T>): Promise<{ value: T; maxGap: number }> {
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 2);
  try {
    const value = await work();
    return { value, maxGap: Math.max(maxGap, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}
