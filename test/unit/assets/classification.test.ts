import { describe, expect, test } from "bun:test";
import {
  normalizeClassification, normalizeDistribution, parseClassification, resolveCountryKey, resolveSectorKey, serializeClassification,
} from "../../../core/assets/classification.ts";
import { Decimal } from "../../../core/money/decimal.ts";

const countries = (d: Record<string, string>) => normalizeDistribution(d, resolveCountryKey, ["geographic_area", "distribution"]);

describe("classification: country keys", () => {
  test("names, alpha-2 and alpha-3 codes resolve to alpha-3, ignoring case and accents", () => {
    for (const [raw, iso3] of [["Italy", "ITA"], ["it", "ITA"], ["ita", "ITA"], ["Côte d'Ivoire", "CIV"], ["United States", "USA"], ["Deutschland", "DEU"]]) {
      expect(resolveCountryKey(raw!)).toEqual({ key: iso3! });
    }
  });

  test("regions and unknown names are refused", () => {
    expect(resolveCountryKey("Europe")).toEqual({ error: "'Europe' is a region, not a country" });
    expect(resolveCountryKey("Atlantis")).toEqual({ error: "Unknown country 'Atlantis'" });
  });
});

describe("classification: sector keys", () => {
  test("GICS sectors keep their canonical spelling; anything else is Other", () => {
    expect(resolveSectorKey("health care")).toEqual({ key: "Health Care" });
    expect(resolveSectorKey("Other")).toEqual({ key: "Other" });
    expect(resolveSectorKey("Technology")).toEqual({ key: "Other" });
  });
});

describe("classification: weights", () => {
  test("a sum within 0.01 of 1 is accepted and renormalised; beyond it is refused", () => {
    expect(countries({ ITA: "0.5", FRA: "0.51" })).toEqual({ ok: true, value: { FRA: "0.5050", ITA: "0.4950" } });
    expect(countries({ ITA: "0.5", FRA: "0.49" })).toEqual({ ok: true, value: { FRA: "0.4949", ITA: "0.5051" } });
    expect(countries({ ITA: "0.5", FRA: "0.5101" }).ok).toBe(false);
    expect(countries({ ITA: "0.5", FRA: "0.4899" }).ok).toBe(false);
  });

  test("keys naming the same country are summed", () => {
    expect(countries({ Italy: "0.25", ITA: "0.25", it: "0.5" })).toEqual({ ok: true, value: { ITA: "1.0000" } });
  });

  test("negative and non-numeric weights are refused at their key; zero weights are kept", () => {
    expect(countries({ ITA: "-0.1", FRA: "1.1" })).toEqual({
      ok: false, issues: [{ path: ["geographic_area", "distribution", "ITA"], message: "Weight must be a decimal number ≥ 0" }],
    });
    expect(countries({ ITA: "x" }).ok).toBe(false);
    expect(countries({ ITA: "1", FRA: "0" })).toEqual({ ok: true, value: { FRA: "0.0000", ITA: "1.0000" } });
  });

  test("the quantised weights always sum to exactly 1", () => {
    const sevenths = countries(Object.fromEntries(["ITA", "FRA", "ESP", "DEU", "PRT", "GRC", "AUT"].map((k) => [k, "0.142857"])));
    if (!sevenths.ok) throw new Error("expected ok");
    expect(Object.values(sevenths.value).reduce((a, w) => a.plus(w), new Decimal(0)).toFixed(4)).toBe("1.0000");
    expect(Object.values(sevenths.value).filter((w) => w === "0.1429")).toHaveLength(6);
  });
});

describe("classification: whole params", () => {
  test("absent areas stay null; issues of both areas are reported together", () => {
    expect(normalizeClassification({ shortDescription: "x" })).toEqual({ ok: true, value: { shortDescription: "x", geographicArea: null, sectorArea: null } });
    const bad = normalizeClassification({ geographicArea: { Atlantis: "1" }, sectorArea: { Energy: "0.5" } });
    expect(bad.ok ? [] : bad.issues.map((i) => i.path[0])).toEqual(["geographic_area", "sector_area"]);
  });

  test("the stored JSON round-trips and leaves out empty areas", () => {
    const c = { shortDescription: null, geographicArea: { ITA: "1.0000" }, sectorArea: null };
    expect(serializeClassification(c)).toBe('{"geographic_area":{"distribution":{"ITA":"1.0000"}}}');
    expect(parseClassification(serializeClassification(c))).toEqual(c);
    expect(parseClassification(null)).toBeNull();
    expect(parseClassification("not json")).toBeNull();
  });
});
