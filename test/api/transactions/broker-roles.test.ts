import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { type TestServer, useApi } from "../../helpers/server.ts";
import { codes, commit, commitOk, createAsset, deposit, eur, list, looseBroker, share, transferPair, validate, withdrawal } from "./fixtures.ts";

const api = useApi();
let server: TestServer;
const c: Record<"owner" | "editor" | "viewer", ApiClient> = {} as never;
const id: Record<string, number> = {};
let shared = 0;
let half = 0;
let asset = 0;

beforeAll(async () => {
  server = api.server;
  for (const name of ["owner", "editor", "viewer"] as const) {
    c[name] = new ApiClient(server.base);
    id[name] = (await c[name].signUp(`role-${name}`)).id;
  }
  shared = await looseBroker(c.owner, "Shared");
  half = await looseBroker(c.owner, "Half");
  await share(c.owner, shared, id.editor!, "EDITOR");
  await share(c.owner, shared, id.viewer!, "VIEWER");
  await share(c.owner, half, id.editor!, "VIEWER");
  asset = createAsset(server.dataDir);
});

describe("VIEWER reads but cannot write", () => {
  test("a VIEWER lists the broker's transactions, with and without broker_id", async () => {
    const [dep] = await commitOk(c.owner, { creates: [deposit(shared, "10")] });
    expect((await list(c.viewer, `broker_id=${shared}`)).map((t) => t.id)).toContain(dep);
    expect((await list(c.viewer)).map((t) => t.id)).toContain(dep);
  });

  test("every write is accessDenied with the broker id: create, update, delete, split, promote", async () => {
    const [dep, w] = await commitOk(c.owner, { creates: [deposit(shared, "10"), withdrawal(shared, "-1")] });
    const [out, inn] = await commitOk(c.owner, { creates: transferPair(shared, half, asset, "1", "v") });
    const res = await commit(c.viewer, {
      creates: [deposit(shared, "1")], updates: [{ id: dep, description: "x" }], deletes: [w],
      splits: [{ id_a: out, id_b: inn }], promotes: [{ id_a: w, id_b: dep }],
    });
    expect(res.committed).toBe(false);
    expect(res.issues.map((i) => [i.operation, i.code, i.params?.broker_id])).toEqual([
      ["delete", "accessDenied", shared], ["update", "accessDenied", shared], ["create", "accessDenied", shared],
      ["split", "accessDenied", shared], ["split", "txNotFound", undefined], ["promote", "accessDenied", shared], ["promote", "accessDenied", shared],
    ]);
    expect((await validate(c.viewer, { creates: [deposit(shared, "1")] })).issues[0]!.code).toBe("accessDenied");
  });
});

describe("EDITOR writes", () => {
  test("an EDITOR creates, updates and deletes in the broker", async () => {
    const [dep] = await commitOk(c.editor, { creates: [deposit(shared, "5")] });
    await commitOk(c.editor, { updates: [{ id: dep, description: "edited" }] });
    await commitOk(c.editor, { deletes: [dep] });
  });

  test("write access is needed on every broker touched: both legs of a pair", async () => {
    const out = await validate(c.editor, { creates: transferPair(half, shared, asset, "1", "h") });
    expect(out.issues.map((i) => [i.index, i.code])).toEqual([[0, "accessDenied"]]);
    const [o, i] = await commitOk(c.owner, { creates: transferPair(half, shared, asset, "1", "h2") });
    expect(codes(await validate(c.editor, { splits: [{ id_a: o, id_b: i }] }))).toEqual(["accessDenied"]);
    expect(codes(await validate(c.editor, { deletes: [o, i] }))).toEqual(["accessDenied"]);
  });

  test("an OWNER writes too", async () => {
    await commitOk(c.owner, { creates: [{ ...deposit(shared, "1"), cash: eur("1") }] });
  });
});
