import { expect } from "bun:test";
import type { ApiClient } from "../../helpers/client.ts";
import { createAsset } from "../transactions/fixtures.ts";
import { REF } from "../../plugins/risk/reference.ts";

/**
 * The first `count` assets of the risk reference data (test/plugins/risk/reference.ts), created
 * in EUR in `dataDir` with their reference closes stored through the API by `client`. Their ids, in
 * reference order.
 */
export async function seedReferenceAssets(dataDir: string, client: ApiClient, count: number = REF.assets.length): Promise<number[]> {
  const refs = REF.assets.slice(0, count);
  const ids = refs.map(() => createAsset(dataDir, "EUR"));
  const res = await client.post("/assets/prices", refs.map((a: any, i: number) => ({
    asset_id: ids[i], prices: REF.dates.map((date: string, t: number) => ({ date, close: a.closes[t] })),
  })));
  expect(res.status).toBe(200);
  return ids;
}
