import "reflect-metadata";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { IMPORT_PLUGINS, type ImportPluginDirectory } from "../../../core/brim/import-plugins.ts";
import type { ApiClient } from "../../helpers/client.ts";
import { type InProcessApp, startInProcess } from "../../helpers/in-process.ts";
import { createBroker, uploaded } from "./helpers.ts";

// The duplicate report of an import commit is read off the request thread, before its write. A
// write to the ledger in between (the same file committed from another tab) must not let the
// rows in twice: the write sees that the ledger moved and reads the duplicates again inside it.
let app: InProcessApp;
let c: ApiClient;

beforeAll(async () => {
  app = await startInProcess();
  c = app.client();
  await c.signUp("racer");
}, 30_000);

afterAll(async () => {
  await app?.close();
});

test("rows written by another request between the plan and the write are skipped as duplicates, not written twice", async () => {
  const broker = await createBroker(c, "Race");
  const csv = "Date,Type,Amount,Currency,Description\n2024-01-02,Deposit,1000.00,EUR,Funding\n2024-01-05,Fee,2.00,EUR,Custody\n";
  const file = await uploaded(c, broker, "race.csv", csv);
  const parse = await (await c.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: broker })).json();
  expect(parse.transactions).toHaveLength(2);

  const port = app.container.resolve<ImportPluginDirectory>(IMPORT_PLUGINS);
  const plan = port.commitPlan.bind(port);
  let raced = false;
  port.commitPlan = async (input) => {
    const made = await plan(input);
    if (!raced) {
      raced = true;
      const other = await (await c.post("/transactions/commit", { creates: parse.transactions })).json();
      expect(other.committed).toBe(true);
    }
    return made;
  };
  try {
    const res = await c.post(`/brokers/import/files/${file.file_id}/commit`, { dry_run: false, edits: [], skips: [], asset_choices: [] });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(raced).toBe(true);
    expect(answer).toMatchObject({ committed: true, rows: [], issues: [] });
    expect(answer.skipped).toEqual([{ row: 0, reason: "duplicate" }, { row: 1, reason: "duplicate" }]);
  } finally {
    port.commitPlan = plan;
  }
  const ledger = await (await c.get(`/transactions?broker_id=${broker}`)).json();
  expect(ledger).toHaveLength(2);
});

test("rows written by another request between the dry run and the commit it confirms are skipped, not written twice", async () => {
  const broker = await createBroker(c, "Race after review");
  const csv = "Date,Type,Amount,Currency,Description\n2024-02-02,Deposit,500.00,EUR,Funding\n2024-02-05,Fee,1.00,EUR,Custody\n";
  const file = await uploaded(c, broker, "review.csv", csv);
  const parse = await (await c.post(`/brokers/import/files/${file.file_id}/parse`, { plugin_code: "auto", broker_id: broker })).json();
  const decisions = { edits: [], skips: [], asset_choices: [] };
  const dry = await (await c.post(`/brokers/import/files/${file.file_id}/commit`, { ...decisions, dry_run: true })).json();
  expect(dry.rows).toHaveLength(2);
  // While the user reviews the dry run, the same rows reach the ledger another way.
  expect((await (await c.post("/transactions/commit", { creates: parse.transactions })).json()).committed).toBe(true);
  const answer = await (await c.post(`/brokers/import/files/${file.file_id}/commit`, { ...decisions, dry_run: false, parse_token: dry.parse_token })).json();
  expect(answer).toMatchObject({ committed: true, rows: [], issues: [] });
  expect(answer.skipped.map((s: any) => s.reason)).toEqual(["duplicate", "duplicate"]);
  expect(await (await c.get(`/transactions?broker_id=${broker}`)).json()).toHaveLength(2);
});
