import { expect, test } from "bun:test";
import { matchRoute, safeNext } from "../../web/src/lib/router.tsx";

test("routes match whole segments and decode their parameters", () => {
  expect(matchRoute("/brokers/:id", "/brokers/12")).toEqual({ id: "12" });
  expect(matchRoute("/fx/:pair", "/fx/EUR-USD")).toEqual({ pair: "EUR-USD" });
  expect(matchRoute("/assets/:id", "/assets/a%20b")).toEqual({ id: "a b" });
  expect(matchRoute("/brokers/:id", "/brokers")).toBeNull();
  expect(matchRoute("/brokers", "/brokers/1")).toBeNull();
  expect(matchRoute("/", "/")).toEqual({});
});

test("the page to return to after sign-in is always a path of this app", () => {
  expect(safeNext("/transactions?broker_id=2")).toBe("/transactions?broker_id=2");
  for (const bad of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "", null, undefined]) {
    expect(safeNext(bad)).toBe("/");
  }
});
