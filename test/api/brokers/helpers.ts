import { expect } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";

/** Creates one broker through the API and returns its id. */
export async function createBroker(c: ApiClient, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await c.post("/brokers", [{ name, ...extra }]);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.results[0].success).toBe(true);
  return body.results[0].broker_id;
}

/** The caller's access rows of a broker, keyed by username. */
export async function accessByName(c: ApiClient, brokerId: number): Promise<Record<string, { role: string; share_percentage: string; user_id: number }>> {
  const res = await c.get(`/brokers/${brokerId}/access`);
  expect(res.status).toBe(200);
  return Object.fromEntries((await res.json()).items.map((i: any) => [i.username, i]));
}
