import { describe, expect, test } from "bun:test";
import { generalDocs } from "../../host/api/general.openapi.ts";
import { API_DOCS } from "../../host/api/openapi.ts";
import { fieldGlossary } from "../../host/http/openapi/glossary.ts";
import { operationDocs } from "../../host/http/openapi/operations.ts";

// Each area keeps its OpenAPI text in its own folder (docs/architecture.md "Where to add"); the
// kernel merges the registered list at start-up.
describe("the areas' OpenAPI text", () => {
  test("an operation documented by two areas is refused instead of one text winning", () => {
    const a = { operations: { "POST /x": { changes: "one" } } };
    const b = { operations: { "POST /x": { changes: "other" } } };
    expect(() => operationDocs([a, b], {})).toThrow("OpenAPI: operation POST /x is documented twice");
  });

  test("a field described by two areas, or by an area and the general list, is refused", () => {
    expect(() => fieldGlossary([{ fields: { x_count: "one" } }, { fields: { x_count: "other" } }])).toThrow("OpenAPI: field x_count is described twice");
    expect(() => fieldGlossary([generalDocs, { fields: { id: "mine" } }])).toThrow("OpenAPI: field id is described twice");
  });

  test("a captured example answer fills in an operation's response unless the area wrote one", () => {
    const docs = operationDocs([{ operations: { "POST /a": { changes: "c" }, "POST /b": { response: { written: true } } } }], {
      "POST /a": { captured: 1 }, "POST /b": { captured: 2 },
    });
    expect(docs["POST /a"]).toEqual({ response: { captured: 1 }, changes: "c" });
    expect(docs["POST /b"]).toEqual({ response: { written: true } });
  });

  test("the registered list merges without a clash, and an area's field keeps its own text", () => {
    expect(Object.keys(operationDocs(API_DOCS.areas, API_DOCS.responses))).toContain("POST /risk/query");
    const describe = fieldGlossary(API_DOCS.areas);
    expect(describe("fake_asset_id")).toStartWith("Placeholder asset id used in the parsed transactions");
    expect(describe("id")).toBe("Numeric id of this record");
    expect(describe("no_such_field")).toBeUndefined();
  });
});
