import { afterEach, expect, test } from "bun:test";
import { localeSeparators, readDecimal, toInputText } from "../../web/src/lib/decimal.ts";
import { loadLanguage, setLanguage } from "../../web/src/lib/i18n.ts";

afterEach(() => setLanguage("en"));

const value = (input: string, locale: string) => {
  const r = readDecimal(input, locale);
  return r.ok ? r.value : r.reason;
};

const NNBSP = "\u202f", NBSP = "\u00a0";

test("comma-decimal languages (it, de, fr, es, nl, pt) read the comma as the decimal mark and group as they write", () => {
  for (const locale of ["it", "de", "fr", "es", "nl", "pt", "pt-BR", "de-AT"]) {
    expect(localeSeparators(locale).decimal).toBe(",");
    expect({ locale, v: value("232,10", locale) }).toEqual({ locale, v: "232.10" });
    expect({ locale, v: value("1,5", locale) }).toEqual({ locale, v: "1.5" });
    expect({ locale, v: value("-0,25", locale) }).toEqual({ locale, v: "-0.25" });
    expect({ locale, v: value(",5", locale) }).toEqual({ locale, v: "0.5" });
    expect({ locale, v: value("1234", locale) }).toEqual({ locale, v: "1234" });
    // The API's own form is understood where it cannot be a grouping.
    expect({ locale, v: value("232.10", locale) }).toEqual({ locale, v: "232.10" });
    expect({ locale, v: value("0.125", locale) }).toEqual({ locale, v: "0.125" });
    expect({ locale, v: value("1234.567", locale) }).toEqual({ locale, v: "1234.567" });
    // Both marks: the last one is the decimal mark.
    expect({ locale, v: value("1.234,56", locale) }).toEqual({ locale, v: "1234.56" });
    expect({ locale, v: value("1.234.567,8", locale) }).toEqual({ locale, v: "1234567.8" });
    expect({ locale, v: value("1.234.567", locale) }).toEqual({ locale, v: "1234567" });
    // Spaces of every kind and apostrophes only group.
    for (const g of [" ", NBSP, NNBSP, "'"]) expect({ locale, g, v: value(`1${g}234${g}567,5`, locale) }).toEqual({ locale, g, v: "1234567.5" });
    // A lone point before three digits could be a thousands point or a decimal point.
    expect({ locale, v: value("1.234", locale) }).toEqual({ locale, v: "ambiguous" });
    // Bad groupings, two decimal marks, letters.
    for (const bad of ["1.23.456", "12,34,5", "1,2,3", "1.2345.678", "1 23,4", "abc", "1,5€", "1..5", "1 234.567.890", "-", ","]) {
      expect({ locale, bad, v: value(bad, locale) }).toEqual({ locale, bad, v: "invalid" });
    }
  }
  expect(value(`1${NNBSP}234,56`, "fr")).toBe("1234.56");
  expect(value("1'234,56", "fr-CH")).toBe("1234.56");
});

test("point-decimal locales (en, de-CH, it-CH) read the point as the decimal mark", () => {
  for (const locale of ["en", "en-GB", "de-CH", "it-CH"]) {
    expect(localeSeparators(locale).decimal).toBe(".");
    expect({ locale, v: value("232.10", locale) }).toEqual({ locale, v: "232.10" });
    expect({ locale, v: value("1.234", locale) }).toEqual({ locale, v: "1.234" });
    expect({ locale, v: value("1,5", locale) }).toEqual({ locale, v: "1.5" });
    expect({ locale, v: value("1,234.56", locale) }).toEqual({ locale, v: "1234.56" });
    expect({ locale, v: value("1,234,567", locale) }).toEqual({ locale, v: "1234567" });
    expect({ locale, v: value("1'234.5", locale) }).toEqual({ locale, v: "1234.5" });
    expect({ locale, v: value("1,234", locale) }).toEqual({ locale, v: "ambiguous" });
    expect({ locale, v: value("1.2.3", locale) }).toEqual({ locale, v: "invalid" });
  }
  expect(value("1'234'567.25", "de-CH")).toBe("1234567.25");
});

test("signs, zeros and surrounding spaces", () => {
  expect(value("  -1.234,56 ", "it")).toBe("-1234.56");
  expect(value("+7", "it")).toBe("7");
  expect(value("\u22123,5", "de")).toBe("-3.5");
  expect(value("-0,00", "de")).toBe("0.00");
  expect(value("007,50", "de")).toBe("7.50");
  expect(value("", "de")).toBe("empty");
  expect(value("   ", "en")).toBe("empty");
});

test("the messages are translated and say how to write the number", async () => {
  await loadLanguage("it");
  const amb = readDecimal("1.234", "it");
  expect(amb.ok).toBe(false);
  if (!amb.ok) {
    expect(amb.message).toContain("1234");
    expect(amb.message).toContain("1,234");
    expect(amb.message).not.toContain("could be read");
  }
  const bad = readDecimal("abc", "it");
  if (!bad.ok) expect(bad.message).toContain("1234,56");
  setLanguage("en");
  const en = readDecimal("-1,234", "en");
  if (!en.ok) expect(en.message).toBe("\"-1,234\" could be read two ways: write -1234 for the whole number, or -1.234 with a decimal mark.");
});

test("stored values are written back for the input in the locale, without grouping", () => {
  expect(toInputText("1234.50", "it")).toBe("1234,50");
  expect(toInputText("-0.25", "fr")).toBe("-0,25");
  expect(toInputText("1234.50", "en")).toBe("1234.50");
  expect(toInputText("1234.50", "de-CH")).toBe("1234.50");
  expect(toInputText("", "de")).toBe("");
  expect(toInputText(null, "de")).toBe("");
  // Round trip in every language.
  for (const locale of ["en", "it", "de", "fr", "es", "nl", "pt", "de-CH"]) {
    for (const v of ["0.001", "1.234", "1234.5678", "-42", "100"]) expect({ locale, v: value(toInputText(v, locale), locale) }).toEqual({ locale, v });
  }
});

test("broker shares are shown and typed as percentages", async () => {
  const { formatShare, percentToFraction, shareToPercent } = await import("../../web/src/lib/format.ts");
  expect(shareToPercent("1.000000")).toBe("100");
  expect(shareToPercent("0.333333")).toBe("33.3333");
  expect(shareToPercent("0.000000")).toBe("0");
  expect(shareToPercent("0.050000")).toBe("5");
  expect(formatShare("1.000000", "it")).toMatch(/^100\s?%$/);
  expect(formatShare("1.000000", "en")).toBe("100%");
  expect(formatShare("0.333333", "de")).toMatch(/^33,3333\s?%$/);
  expect(formatShare("0.5", "fr")).toMatch(/^50\s?%$/);
  expect(percentToFraction("100")).toBe("1");
  expect(percentToFraction("50")).toBe("0.5");
  expect(percentToFraction("12.5")).toBe("0.125");
  expect(percentToFraction("0.0001")).toBe("0.000001");
  expect(percentToFraction("0")).toBe("0");
  expect(percentToFraction("7.10")).toBe("0.071");
});
