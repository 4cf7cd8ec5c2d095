import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resolves once every thread of process `pid` is stopped (Linux /proc state T). kill() only queues
 * SIGSTOP: a process running on another core goes on for a moment, long enough to save another pose.
 * The kernel sends no event for this, so it is polled, and bounded.
 */
export async function untilStopped(pid: number): Promise<void> {
  const stopped = (): boolean => readdirSync(`/proc/${pid}/task`).every((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'T';
  });
  const deadline = performance.now() + 5000;
  while (!stopped()) {
    if (performance.now() > deadline) throw new Error(`process ${pid} did not stop within 5 s of SIGSTOP`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
