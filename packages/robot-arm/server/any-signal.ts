/**
 * One signal aborted when any of `signals` is: the call's cancellation, the loss of its client
 * (`ctx.connectionLost`, the same object as `ctx.signal` where a disconnect is the cancellation),
 * a stop of the arm. Absent and repeated signals are skipped, so one signal is returned as itself.
 */
export function anySignal(...signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const distinct = [...new Set(signals.filter((s): s is AbortSignal => s !== undefined))];
  return distinct.length <= 1 ? distinct[0] : AbortSignal.any(distinct);
}
