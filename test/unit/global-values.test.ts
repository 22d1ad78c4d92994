import { describe, expect, test } from "bun:test";
import { parseGlobalValue } from "../../core/settings/global-defaults.ts";

describe("typed reads of global settings", () => {
  test("int: parses integers, unparsable gives 0", () => {
    expect(parseGlobalValue("24", "int")).toBe(24);
    expect(parseGlobalValue(" 7 ", "int")).toBe(7);
    expect(parseGlobalValue("-3", "int")).toBe(-3);
    for (const bad of ["abc", "", "1.5", "12abc", "1e3", "99999999999999999999"]) expect(parseGlobalValue(bad, "int")).toBe(0);
  });

  test("bool: true only for true, 1, yes, on (any case)", () => {
    for (const t of ["true", "1", "yes", "on", "TRUE", " On "]) expect(parseGlobalValue(t, "bool")).toBe(true);
    for (const f of ["false", "0", "no", "off", "", "y", "enabled"]) expect(parseGlobalValue(f, "bool")).toBe(false);
  });

  test("json is parsed; str is returned as stored", () => {
    expect(parseGlobalValue('{"a":[1,2]}', "json")).toEqual({ a: [1, 2] });
    expect(parseGlobalValue("{broken", "json")).toBeNull();
    expect(parseGlobalValue(" 06:00 ", "str")).toBe(" 06:00 ");
  });
});
