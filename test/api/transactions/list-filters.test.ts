import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { buy, commitOk, createAsset, deposit, eur, list, looseBroker, transferPair, usd, withdrawal } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
let c: ApiClient;
let a = 0;
let b = 0;
let x = 0;
let y = 0;
const t: Record<string, number> = {};

beforeAll(async () => {
  server = api.server;
  c = new ApiClient(server.base);
  await c.signUp("lister");
  a = await looseBroker(c, "A");
  b = await looseBroker(c, "B");
  x = createAsset(server.dataDir);
  y = createAsset(server.dataDir);
  [t.dep, t.w, t.buyX, t.buyY, t.usd, t.out, t.inn, t.tiny] = await commitOk(c, { creates: [
    { ...deposit(a, "1000", "2024-01-01"), tags: ["salary", "monthly"] },
    withdrawal(a, "-100.005", "2024-01-05"),
    { ...buy(a, x, "1", "-100.00", "2024-01-10"), tags: ["tech"] },
    buy(b, y, "2", "-99.99", "2024-01-10"),
    deposit(b, "100", "2024-01-15", "USD"),
    ...transferPair(a, b, x, "1", "tr"),
    deposit(a, "0.000000000000000001", "2024-03-01"),
  ] });
});

const ids = async (query: string) => (await list(c, query)).map((r) => r.id);

describe("GET /transactions filters", () => {
  test("default order is date descending, then id descending; a plain array of TXReadItem", async () => {
    const rows = await list(c);
    expect(rows.map((r) => r.id)).toEqual([t.tiny, t.inn, t.out, t.usd, t.buyY, t.buyX, t.w, t.dep]);
    expect(Object.keys(rows[0]!).sort()).toEqual([
      "asset_event_id", "asset_id", "broker_id", "cash", "cost_basis_mode", "cost_basis_override", "created_at", "date", "description",
      "id", "partner_broker_id", "quantity", "related_transaction_id", "tags", "type", "updated_at",
    ]);
    expect(rows.find((r) => r.id === t.out)!.cash).toBeNull();
  });

  test("broker_id, asset_id, types (repeated), currency", async () => {
    expect(await ids(`broker_id=${b}`)).toEqual([t.inn, t.usd, t.buyY]);
    expect(await ids(`asset_id=${x}`)).toEqual([t.inn, t.out, t.buyX]);
    expect(await ids("types=BUY&types=WITHDRAWAL")).toEqual([t.buyY, t.buyX, t.w]);
    expect(await ids("types=TRANSFER")).toEqual([t.inn, t.out]);
    expect(await ids("currency=USD")).toEqual([t.usd]);
  });

  test("date_start and date_end are inclusive", async () => {
    expect(await ids("date_start=2024-01-05&date_end=2024-01-10")).toEqual([t.buyY, t.buyX, t.w]);
  });

  test("tags match any of the given tags", async () => {
    expect(await ids("tags=monthly")).toEqual([t.dep]);
    expect(await ids("tags=tech&tags=salary")).toEqual([t.buyX, t.dep]);
  });

  test("amount_abs_min and amount_abs_max compare absolute cash amounts exactly, not as floats; rows without cash never match", async () => {
    expect(await ids("amount_abs_min=100&amount_abs_max=100")).toEqual([t.usd, t.buyX]);
    expect(await ids("amount_abs_min=100.005")).toEqual([t.w, t.dep]);
    expect(await ids("amount_abs_min=100.0050000000000001")).toEqual([t.dep]);
    expect(await ids("amount_abs_max=99.99")).toEqual([t.tiny, t.buyY]);
    expect(await ids("amount_abs_min=0.000000000000000001&amount_abs_max=0.000000000000000001")).toEqual([t.tiny]);
  });

  test("only_unlinked drops paired legs; exclude_ids drops the given rows", async () => {
    expect(await ids("only_unlinked=true&asset_id=" + x)).toEqual([t.buyX]);
    expect(await ids(`exclude_ids=${t.tiny}&exclude_ids=${t.inn}&broker_id=${b}`)).toEqual([t.usd, t.buyY]);
  });

  test("limit and offset page through the ordered rows", async () => {
    expect(await ids("limit=3")).toEqual([t.tiny, t.inn, t.out]);
    expect(await ids("limit=3&offset=3")).toEqual([t.usd, t.buyY, t.buyX]);
    expect(await ids("limit=3&offset=9")).toEqual([]);
  });

  test("ids return rows in input order and ignore the other filters", async () => {
    expect(await ids(`ids=${t.buyY}&ids=${t.dep}&ids=${t.inn}&types=DEPOSIT&limit=1&broker_id=99999`)).toEqual([t.buyY, t.dep, t.inn]);
  });

  test("money and quantities are decimal strings; cash and cost basis are {code, amount}", async () => {
    const [w] = await list(c, `ids=${t.w}`);
    expect(w!.cash).toEqual(eur("-100.005"));
    const [usdRow] = await list(c, `ids=${t.usd}`);
    expect(usdRow!.cash).toEqual(usd("100"));
  });

  test("out-of-range limit, a bad date or a bad amount is 422", async () => {
    for (const query of ["limit=0", "limit=10001", "date_start=2024-02-30", "amount_abs_min=abc", "amount_abs_min=-1", "types=GIFT"]) {
      await expectError(await c.get(`/transactions?${query}`), 422, "VALIDATION_ERROR");
    }
  });
});
