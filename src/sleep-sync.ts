/** Blocks the thread for `ms`: only for work that cannot await (opening a database, taking a lock while one opens). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
