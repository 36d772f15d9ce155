/**
 * Background work yields the CPU to requests: the import/export worker lowers its own thread's
 * priority, so on a busy machine the request thread is scheduled first (issue 12: light requests
 * during an import). On Linux a thread is a task with its own nice value, named by /proc/thread-self;
 * elsewhere this does nothing.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** This thread's id (Linux), or null. */
export function threadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Sets this thread's nice value (10: background); returns whether it could. */
export function lowerThreadPriority(nice = 10): boolean {
  const tid = threadId();
  if (tid == null) return false;
  try {
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
