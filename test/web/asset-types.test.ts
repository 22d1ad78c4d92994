import { afterEach, expect, test } from "bun:test";
import { assetTypeLabel, assetTypeOptions, ASSET_TYPES } from "../../web/src/lib/asset-types.ts";
import { loadLanguage, setLanguage } from "../../web/src/lib/i18n.ts";

afterEach(() => setLanguage("en"));

test("asset types show by name in the interface language; the API code stays the value", async () => {
  expect(ASSET_TYPES).toEqual(["STOCK", "ETF", "BOND", "CRYPTO", "FUND", "CROWDFUND", "HOLD", "INDEX", "OTHER"]);
  expect(assetTypeLabel("BOND")).toBe("Bond");
  await loadLanguage("de");
  expect(assetTypeLabel("STOCK")).toBe("Aktie");
  expect(assetTypeOptions().find((o) => o.value === "BOND")).toEqual({ value: "BOND", label: "Anleihe" });
  await loadLanguage("pt-BR");
  expect(assetTypeLabel("FUND")).toBe("Fundo");
});

test("an unknown code shows as is, no type as nothing", () => {
  expect(assetTypeLabel("WARRANT")).toBe("WARRANT");
  expect(assetTypeLabel(null)).toBe("");
});
