import "reflect-metadata";
import { beforeAll, expect, spyOn, test } from "bun:test";
import { EntityManager } from "typeorm";
import { Asset } from "../../../core/assets/asset.entity.ts";
import type { ApiClient } from "../../helpers/client.ts";
import { type InProcessApp, useInProcess } from "../../helpers/in-process.ts";
import { queryRows } from "../../helpers/test-db.ts";
import { createBroker, uploaded } from "./helpers.ts";

// An import commit runs its write on the request thread (bun:sqlite answers synchronously), in one
// database transaction: the statements that take a few milliseconds each (a new asset's insert, a
// multi-row INSERT of ledger rows) are kept small and other requests get a turn between them, so
// `/system/health` stays under 20 ms during a 50,000-row import (docs/import.md "Performance").
const env = useInProcess("turns");
const spies = env.spies;
let app: InProcessApp;
let c: ApiClient;
beforeAll(() => {
  ({ app, c } = env);
});

/** Counts turns of the event loop: a self-renewing setImmediate. */
function turnCounter() {
  let turns = 0;
  let on = true;
  const tick = () => { turns++; if (on) setImmediate(tick); };
  setImmediate(tick);
  return { get turns() { return turns; }, stop: () => { on = false; } };
}

test("an import's new assets are inserted one per turn of the event loop, and all of them are committed", async () => {
  const broker = await createBroker(c, "Turns assets");
  const csv = ["Date,Type,ISIN,Name,Quantity,Price,Amount,Currency,Description", "2024-02-01,Deposit,,,,,1000.00,EUR,funding",
    ...["001", "002", "003", "004"].map((n, i) => `2024-03-0${i + 1},Buy,IE00BTURN${n},Turn fund ${n},2,10.00,20.00,EUR,buy ${n}`)].join("\n");
  const file = await uploaded(c, broker, "turns.csv", `${csv}\n`);
  const parse = await (await c.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "broker_generic_csv", broker_id: broker })).json();
  expect(parse.asset_mappings).toHaveLength(4);
  const choices = parse.asset_mappings.map((m: any) => ({ fake_asset_id: m.fake_asset_id, action: "create" }));

  const counter = turnCounter();
  const turnsAtInsert: number[] = [];
  const save = EntityManager.prototype.save;
  spies.push(spyOn(EntityManager.prototype, "save").mockImplementation(function (this: EntityManager, ...args: unknown[]) {
    if (args[0] === Asset) turnsAtInsert.push(counter.turns);
    return (save as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof save));
  const res = await c.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: false, edits: [], skips: [], asset_choices: choices });
  counter.stop();
  expect(res.status).toBe(200);
  const answer = await res.json();
  expect(answer).toMatchObject({ committed: true, issues: [] });
  expect(answer.rows).toHaveLength(5);

  // Four inserts, each after at least one turn for other requests since the one before.
  expect(turnsAtInsert).toHaveLength(4);
  for (let k = 1; k < turnsAtInsert.length; k++) expect(turnsAtInsert[k]!).toBeGreaterThan(turnsAtInsert[k - 1]!);
  const created = answer.assets.map((a: any) => a.asset_id);
  expect(created.every((id: unknown) => typeof id === "number")).toBe(true);
  const names = queryRows<{ name: string }>(app.dataDir, `SELECT name FROM assets WHERE id IN (${created.join(",")}) ORDER BY name`).map((a) => a.name);
  expect(names).toEqual(["Turn fund 001", "Turn fund 002", "Turn fund 003", "Turn fund 004"]);
});

test("a batch inserts its new rows at most 100 per statement, each row stored under the id it answers", async () => {
  const broker = await createBroker(c, "Turns rows");
  const creates = Array.from({ length: 230 }, (_, i) => ({
    broker_id: broker, type: "DEPOSIT", date: `2024-01-${String(1 + (i % 28)).padStart(2, "0")}`, cash: { code: "EUR", amount: `${i + 1}.25` },
  }));
  const inserted: number[] = [];
  const query = EntityManager.prototype.query;
  spies.push(spyOn(EntityManager.prototype, "query").mockImplementation(function (this: EntityManager, sql: string, params?: unknown[]) {
    if (sql.startsWith(`INSERT INTO "transactions"`)) inserted.push((sql.match(/\),\s*\(/g)?.length ?? 0) + 1);
    return (query as (...a: unknown[]) => unknown).call(this, sql, params);
  } as typeof query));
  const res = await c.post("/transactions/commit", { creates });
  expect(res.status).toBe(200);
  const answer = await res.json();
  expect(answer.committed).toBe(true);

  expect(inserted).toEqual([100, 100, 30]);
  const ids: number[] = answer.results.map((r: any) => r.ids[0]);
  expect(new Set(ids).size).toBe(230);
  const stored = await (await c.get(`/transactions?broker_id=${broker}`)).json();
  const amountOf = new Map((Array.isArray(stored) ? stored : stored.items).map((t: any) => [t.id, t.cash.amount]));
  // The id answered for create k holds create k's amount (ids are counted back from each statement's last rowid).
  ids.forEach((id, k) => expect(amountOf.get(id)).toBe(`${k + 1}.25`));
});
