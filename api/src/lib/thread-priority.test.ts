import { transformSync } from 'esbuild';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadId } from './thread-priority';

/** A task's nice value, field 19 of /proc/<pid>/task/<tid>/stat (after the parenthesised name). */
const niceOf = (tid: number) => Number(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);

describe.runIf(process.platform === 'linux')('lowerThreadPriority', () => {
  it('lowers the calling thread only: a worker that calls it runs at nice 10, the request thread keeps its priority', async () => {
    const before = niceOf(threadId()!);
    // The module itself, compiled here and run in a plain worker thread.
    const compiled = transformSync(readFileSync(new URL('./thread-priority.ts', import.meta.url), 'utf8'), {
      loader: 'ts',
      format: 'cjs',
    }).code;
    const source = `
      const { parentPort } = require('node:worker_threads');
      const module = { exports: {} };
      ${compiled}
      const m = module.exports;
      parentPort.postMessage({ lowered: m.lowerThreadPriority(10), tid: m.threadId() });
      setTimeout(() => {}, 2000);`;
    const worker = new Worker(source, { eval: true });
    const { lowered, tid } = await new Promise<{ lowered: boolean; tid: number }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    try {
      expect(lowered).toBe(true);
      expect(tid).not.toBe(threadId());
      expect(niceOf(tid)).toBe(10);
      expect(niceOf(threadId()!)).toBe(before);
    } finally {
      await worker.terminate();
    }
  });
});
