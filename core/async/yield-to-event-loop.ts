/**
 * Lets the event loop run (I/O, timers, other requests) before continuing. bun:sqlite answers
 * synchronously, so a long run of statements awaited one after another never gives the loop a
 * turn on its own: the backup streams and the ledger's bulk inserts call this between chunks.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
