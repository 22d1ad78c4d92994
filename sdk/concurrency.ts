/**
 * Runs `task` over `items` with at most `limit` tasks running at once, and resolves with the
 * results in the order of `items` (not of completion). Rejects with the first task's rejection;
 * batch methods wrap each task in `ok`/`failure` so one bad item never rejects the batch.
 * Example: `await mapBounded(identifiers, 5, (id) => quote(id).then(ok, failure))`.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
