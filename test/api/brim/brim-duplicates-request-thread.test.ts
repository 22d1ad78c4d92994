import "reflect-metadata";
import { beforeAll, expect, spyOn, test } from "bun:test";
import { MessagePort } from "node:worker_threads";
import Tinypool from "tinypool";
import { createHeapSettler } from "../../../host/http/heap-settle.ts";
import { bodyHeldAsBytes } from "../../../host/http/server.ts";
import run from "../../../host/workers/calc.worker.ts";
import type { ApiClient } from "../../helpers/client.ts";
import { type InProcessApp, useInProcess } from "../../helpers/in-process.ts";
import { createBroker } from "./helpers.ts";

// A duplicates check of 50,000 rows (5 MB of JSON) runs in the worker pool, and the request thread
// stays free for other requests (docs/import.md "Performance"): the rows' bytes are moved between the
// threads, not copied (each copy held the request thread 5–24 ms in one piece), and the heap settler
// collects after the request as after an upload, concurrently (its full collection 100 ms after each
// check held the request thread 12–49 ms).
const env = useInProcess("moves");
const spies = env.spies;
let app: InProcessApp;
let c: ApiClient;
beforeAll(() => {
  ({ app, c } = env);
});

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({
  type: "DEPOSIT", date: "2024-01-02", quantity: "0", cash: { code: "EUR", amount: `${100 + (i % 3)}.25` }, description: `row ${i}`,
}));

test("a duplicates check moves the rows' bytes to the worker pool (both tasks), never copying them, and answers the same report", async () => {
  const broker = await createBroker(c, "Moves");
  const seeded = await (await c.post("/transactions/commit", {
    creates: [{ broker_id: broker, type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount: "100.25" } }],
  })).json();
  expect(seeded.committed).toBe(true);

  const posted: { name: string; bytes: Uint8Array; moved: boolean }[] = [];
  const post = MessagePort.prototype.postMessage;
  spies.push(spyOn(MessagePort.prototype, "postMessage").mockImplementation(function (this: MessagePort, message: any, transfer?: any) {
    const task = message?.task;
    if (task?.name === "brimDuplicatesBody" || task?.name === "brimDuplicates") {
      const bytes: Uint8Array = task.input.bytes ?? task.input.json;
      const list: unknown[] = Array.isArray(transfer) ? transfer : transfer?.transfer ?? [];
      posted.push({ name: task.name, bytes, moved: list.includes(bytes.buffer) });
    }
    return post.call(this, message, transfer);
  } as typeof post));

  const res = await c.post("/brokers/import/duplicates", { broker_id: broker, transactions: rows(3_000), asset_mappings: [] });
  expect(res.status).toBe(200);
  const report = await res.json();
  expect(report.tx_likely_duplicates).toEqual([{ tx_index: 0, match_level: "likely", existing_transaction_ids: [expect.any(Number)] }]);
  expect(report.tx_possible_duplicates).toHaveLength(999);
  expect(report.tx_unique_indices).toHaveLength(2_000);

  expect(posted.map((p) => [p.name, p.moved])).toEqual([["brimDuplicatesBody", true], ["brimDuplicates", true]]);
  // Moved: the request thread's buffers are detached, nothing of them was left behind as a copy.
  for (const p of posted) expect(p.bytes.byteLength).toBe(0);
});

test("the worker hands the checked body back with its buffer moved, not copied", async () => {
  const body = new TextEncoder().encode(JSON.stringify({ broker_id: 7, transactions: rows(3), asset_mappings: [] }));
  const answer = (await run({ name: "brimDuplicatesBody", input: { bytes: body } })) as any;
  expect(Tinypool.transferableSymbol in answer).toBe(true);
  const message = answer[Tinypool.valueSymbol];
  expect(message.result.brokerId).toBe(7);
  expect(answer[Tinypool.transferableSymbol]).toEqual([message.result.json.buffer]);
  expect(JSON.parse(new TextDecoder().decode(message.result.json)).creates).toHaveLength(3);
});

test("a duplicates body read by the worker is collected after as an upload is: concurrently, never the full collection of a JSON write", async () => {
  const broker = await createBroker(c, "Settled");
  const requests: Request[] = [];
  const read = Request.prototype.arrayBuffer;
  spies.push(spyOn(Request.prototype, "arrayBuffer").mockImplementation(function (this: Request) {
    requests.push(this);
    return read.call(this);
  } as typeof read));
  const body = JSON.stringify({ broker_id: broker, transactions: rows(3_000), asset_mappings: [] });
  expect(body.length).toBeGreaterThan(256 * 1024);
  const res = await c.post("/brokers/import/duplicates", body, { "content-type": "application/json" });
  expect(res.status).toBe(200);
  expect((await res.json()).tx_unique_indices).toHaveLength(3_000);
  const request = requests.find((r) => r.url.endsWith("/brokers/import/duplicates"))!;
  expect(bodyHeldAsBytes(request)).toBe(true);

  // What the server's settler does with it (host/http/server.ts passes bodyHeldAsBytes as `upload`).
  const calls: string[] = [];
  const settler = createHeapSettler(60_000, { full: () => calls.push("full"), concurrent: () => calls.push("concurrent"), prompt: () => calls.push("prompt") });
  settler.beforeRequest();
  settler.afterRequest(body.length, 0, bodyHeldAsBytes(request));
  await Bun.sleep(150);
  expect(calls).toEqual(["concurrent"]);
});

test("a JSON write Elysia parsed on the request thread is not counted as held as bytes (it keeps its full collection)", async () => {
  const broker = await createBroker(c, "Parsed here");
  const requests: Request[] = [];
  const read = Request.prototype.json;
  spies.push(spyOn(Request.prototype, "json").mockImplementation(function (this: Request) {
    requests.push(this);
    return read.call(this);
  } as typeof read));
  const res = await c.post("/transactions/commit", { creates: [{ broker_id: broker, type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount: "1.25" } }] });
  expect(res.status).toBe(200);
  const request = requests.find((r) => r.url.endsWith("/transactions/commit"));
  expect(request).toBeDefined();
  expect(bodyHeldAsBytes(request!)).toBe(false);
});
