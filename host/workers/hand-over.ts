import Tinypool from "tinypool";

/** Answers whose buffers a task hands back to the caller moved, not copied (see {@link handOver}). */
const handedOver = new WeakMap<object, ArrayBuffer[]>();

/**
 * Marks a task's answer: `buffers` (of the answer, owned by it alone) go back to the request thread
 * moved rather than copied when the worker posts it (host/workers/calc.worker.ts). A 5 MB copy costs
 * the receiving thread 5–12 ms in one piece; a move costs well under one. The answer is returned as it is.
 */
export function handOver<T extends object>(answer: T, buffers: ArrayBuffer[]): T {
  handedOver.set(answer, buffers);
  return answer;
}

/**
 * The worker's message for `answer` (the calculation's result) from its thread: with the buffers
 * `answer` was handed over with as tinypool's transfer list, else the message as it is.
 */
export function workerMessage<T>(answer: unknown, message: T): T {
  const buffers = typeof answer === "object" && answer !== null ? handedOver.get(answer) : undefined;
  if (!buffers?.length) return message;
  return Tinypool.move({ [Tinypool.transferableSymbol]: buffers, [Tinypool.valueSymbol]: message } as never) as T;
}
