import { beforeAll, describe, expect, test } from "bun:test";
import { example, loadOperations, type Operation, wrongAnswer } from "../../helpers/openapi-operations.ts";
import { useApi } from "../../helpers/server.ts";

// Bad input gets a clear 4xx in the one error body (docs/errors.md), whatever field is wrong: every
// documented request is sent with each field of its example body, in turn, given a value of the
// wrong type or shape (and each query and path parameter a malformed one), by a user who owns the
// ids the examples name, so the request reaches the rules behind the schema.
const api = useApi({ users: ["admin", "bob"] });
let operations: Operation[] = [];

/** Calls that end the caller's session or account, or the server: not sent. */
const NOT_SENT = new Set(["POST /auth/logout", "DELETE /auth/users/me", "POST /auth/change-password", "DELETE /brokers/{id}/access/me"]);

const WRONG: Record<string, unknown[]> = {
  string: [123, null, "", "x".repeat(5000), "1e400", "-0", "NaN", "2024-02-30", "0000-01-01", "\u0000", "1,5", [], {}],
  number: ["1", -1, 0, 1e308, 1.5, 2 ** 53 + 1, -2147483649, null, [], {}],
  boolean: ["true", 1, null],
  array: [[], {}, [null], "x", null],
  object: [[], "x", null, 1],
};
const WRONG_QUERY = ["", "-1", "abc", "1e999", "99999999999999999999", "2024-13-01", "1.5", "%00", "a,b"];
const WRONG_PATH = ["0", "-1", "abc", "99999999999999999999", "1.5"];

type Path = (string | number)[];

/** Every value in `v` with its path, `v` itself first. */
function fields(v: unknown, at: Path = []): [Path, unknown][] {
  if (Array.isArray(v)) return [[at, v], ...v.flatMap((x, i) => fields(x, [...at, i]))];
  if (v && typeof v === "object") return [[at, v], ...Object.entries(v).flatMap(([k, x]) => fields(x, [...at, k]))];
  return [[at, v]];
}

/** The operation's path with each parameter naming the user's first thing (an unknown file for a file id). */
function placeholderPath(path: string): string {
  return path.replace(/\{[^}]+\}/g, (p) => (/file_id|uuid/.test(p) ? "00000000-0000-4000-8000-000000000000" : "1"));
}

function replaced(v: unknown, at: Path, value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(v) as any;
  let o = copy;
  for (const k of at.slice(0, -1)) o = o[k];
  o[at.at(-1)!] = value;
  return copy;
}

function kind(v: unknown): string {
  return Array.isArray(v) ? "array" : v === null ? "object" : typeof v;
}

/** Each request to send: the path, the body, and what was made wrong. */
function wrongRequests(o: Operation): { url: string; body: unknown; what: string }[] {
  const path = placeholderPath(o.path);
  const body = example(o.op);
  const out: { url: string; body: unknown; what: string }[] = [];
  if (body !== undefined) {
    for (const [at, current] of fields(body)) {
      for (const value of WRONG[kind(current)] ?? []) out.push({ url: path, body: replaced(body, at, value), what: `${at.join(".") || "(body)"} = ${JSON.stringify(value)?.slice(0, 20)}` });
    }
  }
  for (const p of (o.op.parameters ?? []) as { in: string; name: string }[]) {
    if (p.in === "query") for (const value of WRONG_QUERY) out.push({ url: `${path}?${p.name}=${encodeURIComponent(value)}`, body, what: `?${p.name}=${value}` });
    if (p.in === "path") for (const value of WRONG_PATH) out.push({ url: placeholderPath(o.path.replace(`{${p.name}}`, value)), body, what: `{${p.name}} = ${value}` });
  }
  return out;
}

beforeAll(async () => {
  operations = await loadOperations(api.base);
  // Bob owns broker 1, asset 1, prices and rows: the examples' ids name his data.
  const bob = api.as.bob!;
  const ok = async (res: Response) => {
    if (res.status >= 300) throw new Error(`${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  await ok(await bob.post("/brokers", [{ name: "Main", opened_at: "2020-01-01" }]));
  await ok(await bob.post("/assets", [{ name: "World ETF", currency: "EUR", identifier_isin: "IE00B4L5Y983" }]));
  await ok(await bob.post("/assets/prices", [{ asset_id: 1, prices: [{ date: "2024-01-02", close: "80.12" }, { date: "2024-02-01", close: "81.40" }] }]));
  const commit = await ok(await bob.post("/transactions/commit", { creates: [
    { broker_id: 1, type: "DEPOSIT", date: "2024-01-02", cash: { code: "EUR", amount: "10000" } },
    { broker_id: 1, asset_id: 1, type: "BUY", date: "2024-01-03", quantity: "5", cash: { code: "EUR", amount: "-400.60" } },
  ] }));
  if (!commit.committed) throw new Error(JSON.stringify(commit.issues));
});

describe("bad input gets a clear 4xx in the one error body", () => {
  test("every field of every documented request given a wrong type or shape, and every malformed parameter: a documented 4xx with the error body, never a 5xx", async () => {
    const wrong: string[] = [];
    let sent = 0;
    let refused = 0;
    for (const o of operations) {
      if (NOT_SENT.has(`${o.method} ${o.path}`)) continue;
      for (const r of wrongRequests(o)) {
        const res = await api.as.bob!.request(o.method, r.url, r.body);
        const text = await res.text();
        sent++;
        if (res.status >= 400) refused++;
        const wrongly = res.status >= 500 ? `${res.status} ${text.slice(0, 200)}` : wrongAnswer(o, res.status, text);
        if (wrongly) wrong.push(`${o.method} ${o.path} ${r.what}: ${wrongly}`);
      }
    }
    expect(wrong).toEqual([]);
    // The sweep reached the operations: thousands of requests, most of them refused.
    expect(sent).toBeGreaterThan(3000);
    expect(refused).toBeGreaterThan(sent / 2);
    expect(api.server.logs().filter((l) => l.level === "error").map((l) => l.msg)).toEqual([]);
  });
});

describe("a day is a day of the calendar", () => {
  test("the year 0000 (in neither the Gregorian calendar nor PostgreSQL's dates) is refused at its field wherever a request takes a day", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const o of operations) {
      const body = example(o.op);
      if (body === undefined || NOT_SENT.has(`${o.method} ${o.path}`)) continue;
      const path = placeholderPath(o.path);
      // The shared FX rates are the administrator's to change.
      const caller = o.path.startsWith("/fx/currencies/rate") ? api.as.admin! : api.as.bob!;
      for (const [at, current] of fields(body)) {
        if (typeof current !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(current)) continue;
        const res = await caller.request(o.method, path, replaced(body, at, "0000-01-01"));
        const answer = await res.json();
        checked++;
        // A batch of transactions answers its per-row issues (docs/transactions.md); everything else a 422 at the field.
        const refused = res.status === 200 && "committed" in answer
          ? answer.committed === false && answer.issues.some((i: any) => i.index === at[1] && i.field === "date")
          : res.status === 422 && answer.detail.some((i: any) => JSON.stringify(i.loc.slice(1)) === JSON.stringify(at));
        if (!refused) wrong.push(`${o.method} ${o.path} ${at.join(".")}: ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
