import { beforeAll, describe, expect, test } from "bun:test";
import { useApi } from "../../helpers/server.ts";

// Where the specification leaves the contract open, the OpenAPI document says what the server does
// (docs/decisions.md "Date ranges", docs/errors.md).
const api = useApi({ users: ["alice"] });
let doc: any;

beforeAll(async () => {
  doc = await (await fetch(`${api.base}/openapi.json`)).json();
});

const resolve = (schema: any): any => (schema?.$ref ? doc.components.schemas[schema.$ref.split("/").at(-1)] : schema);

/** Every `end` of a `date_range`, `date_ranges[]` or `period` in request bodies, with where it is. */
function rangeEnds(): { where: string; end: any; required: boolean }[] {
  const found: { where: string; end: any; required: boolean }[] = [];
  const seen = new Set<any>();
  const visit = (node: any, where: string) => {
    node = resolve(node);
    if (!node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    for (const [name, prop] of Object.entries<any>(node.properties ?? {})) {
      if (["date_range", "date_ranges", "period"].includes(name)) {
        for (const option of [prop, prop.items, ...(prop.anyOf ?? [])]) {
          const range = resolve(option);
          if (range?.properties?.end) found.push({ where: `${where}.${name}`, end: range.properties.end, required: (range.required ?? []).includes("end") });
        }
      }
      visit(prop, `${where}.${name}`);
    }
    for (const k of ["items", "anyOf", "oneOf", "allOf"]) {
      const v = node[k];
      if (Array.isArray(v)) v.forEach((n: any) => visit(n, where));
      else if (v) visit(v, where);
    }
  };
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) visit(op.requestBody?.content?.["application/json"]?.schema, `${method.toUpperCase()} ${path}`);
  }
  return found;
}

describe("an open date_range end has one meaning per kind of range, stated in each schema", () => {
  test("every optional end of a request's date range says what leaving it out means", () => {
    const ends = rangeEnds();
    expect(ends.length).toBeGreaterThan(8);
    const unexplained = ends.filter((e) => !e.required && !/absent.*(the start day only|today \(UTC\))/i.test(e.end.description ?? "")).map((e) => e.where);
    expect(unexplained).toEqual([]);
  });

  test("deleting shared FX rates with only a start deletes that day, not every later one", async () => {
    const alice = api.as.alice!;
    const days = ["2024-01-02", "2024-01-03", "2024-01-04"];
    expect((await alice.post("/fx/currencies/rate", days.map((date) => ({ date, base: "EUR", quote: "USD", rate: "1.1" })))).status).toBe(200);
    const deleted = await (await alice.request("DELETE", "/fx/currencies/rate", [{ from: "EUR", to: "USD", date_range: { start: "2024-01-03" } }])).json();
    expect(deleted.total_deleted).toBe(1);
    expect(deleted.results[0].date_range).toEqual({ start: "2024-01-03", end: "2024-01-03" });
    const left = await (await alice.post("/fx/currencies/convert", [
      { from_amount: { code: "EUR", amount: "1" }, to: "USD", date_range: { start: "2024-01-04" } },
    ])).json();
    expect(left.results[0].conversion_date).toBe("2024-01-04");
    expect(left.results[0].backward_fill_info).toBeUndefined();
  });
});

describe("each operation says which envelope its answer has", () => {
  test("collections name their envelope (plain array, {items}, bulk) as they are", () => {
    const say = (method: string, path: string) => doc.paths[`/api/v1${path}`][method].description as string;
    expect(say("get", "/brokers")).toContain("**Answer:** the list envelope `{items: [...]}`");
    expect(say("get", "/transactions")).toContain("**Answer:** a plain JSON array, no envelope.");
    expect(say("post", "/brokers")).toContain("**Answer:** the bulk envelope");
    const collections = Object.entries<any>(doc.paths).flatMap(([path, item]) => (item.get ? [[path, item.get] as const] : []))
      .filter(([, op]) => {
        const schema = resolve(op.responses?.["200"]?.content?.["application/json"]?.schema);
        return schema?.type === "array" || schema?.properties?.items?.type === "array";
      });
    expect(collections.length).toBeGreaterThan(10);
    expect(collections.filter(([, op]) => !op.description.includes("**Answer:**")).map(([path]) => path)).toEqual([]);
  });
});
