/**
 * The one `withTimeout`: runs `work` with a signal that aborts after `ms`; the returned promise
 * rejects then even when `work` ignores the signal. The rejection is `expired()` when given,
 * else a DOMException named "TimeoutError". A synchronous throw of `work` rejects the promise.
 */
export async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => T | Promise<T>, expired?: () => Error): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = expired ? expired() : new DOMException(`no answer within ${ms} ms`, "TimeoutError");
      controller.abort(error);
      reject(error);
    }, ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => work(controller.signal)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
