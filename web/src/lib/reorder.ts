/**
 * Reordering a pair's FX routes (docs/fx.md): the user gives the routes a new order, and the
 * priorities they already use are handed out again in that order. A route whose priority changes
 * is deleted at its old priority and posted at its new one (the API refuses a chain the pair
 * already has at another priority, so it cannot be updated in place).
 */

/** The list with the item at `from` moved to `to` (both clamped to the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = list.slice();
  if (from < 0 || from >= out.length) return out;
  const target = Math.max(0, Math.min(out.length - 1, to));
  const [item] = out.splice(from, 1);
  out.splice(target, 0, item!);
  return out;
}

export interface Prioritised { priority: number }

/**
 * What to send for a new order: the priorities to delete, and each moved route with its new
 * priority. `before` is ascending by priority; `after` holds the same routes in the new order.
 */
export function reorderPlan<R extends Prioritised>(before: readonly R[], after: readonly R[]): { deletes: number[]; creates: { route: R; priority: number }[] } {
  const priorities = before.map((r) => r.priority);
  const creates = after.map((route, k) => ({ route, priority: priorities[k]! })).filter((c) => c.route.priority !== c.priority);
  return { deletes: creates.map((c) => c.route.priority), creates };
}
