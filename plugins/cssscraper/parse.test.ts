import { describe, expect, test } from "bun:test";
import { isUsableSelector, parsePrice, priceOnPage } from "./parse.ts";

const price = (text: string, format: "eu" | "us") => String(parsePrice(text, format));
const refused = (text: string, format: "eu" | "us") => () => parsePrice(text, format);
const BAD = expect.objectContaining({ reason: "bad-response" });

describe("us format (1,234.56)", () => {
  test("comma groups, point decimals, with or without groups", () => {
    expect(["1,234.56", "1234.56", "12,345,678", "0.5", "7"].map((t) => price(t, "us"))).toEqual(["1234.56", "1234.56", "12345678", "0.5", "7"]);
  });

  test("a currency sign or code and spaces around the number are ignored", () => {
    expect(["$1,234.56", "US$ 1,234.56", "1,234.56 USD", "Price: $ 99.90*", "£0.99"].map((t) => price(t, "us"))).toEqual([
      "1234.56", "1234.56", "1234.56", "99.9", "0.99",
    ]);
  });

  test("a minus before the number (ASCII or typographic, before or after the sign) is kept", () => {
    expect(["-1.5", "\u22121.5", "-$1.50", "$-1.50"].map((t) => price(t, "us"))).toEqual(["-1.5", "-1.5", "-1.5", "-1.5"]);
  });

  test("digits are exact, beyond what a float holds", () => {
    expect(price("12,345,678,901,234,567.891", "us")).toBe("12345678901234567.891");
    expect(price("0.1", "us")).toBe("0.1");
  });

  test("eu-written numbers, misplaced groups, bare fractions and two numbers are refused", () => {
    for (const text of ["1.234,56", "1,23.4", "12,34", ".5", "$.5", "1.2.3", "98.10 - 99.20", "+1.2 (+3%)", "n/a", ""]) {
      expect(refused(text, "us")).toThrow(BAD);
    }
  });
});

describe("eu format (1.234,56)", () => {
  test("point groups, comma decimals; spaces, thin spaces and apostrophes as groups", () => {
    const texts = ["1.234,56", "1234,56", "1.234.567", "1 234,56", "1\u202f234,56", "1\u00a0234,56 €", "1'234,50", "EUR 0,99"];
    expect(texts.map((t) => price(t, "eu"))).toEqual(["1234.56", "1234.56", "1234567", "1234.56", "1234.56", "1234.56", "1234.5", "0.99"]);
  });

  test("us-written numbers and malformed groups are refused", () => {
    for (const text of ["1,234.56", "1.23,4", "12.34", ",5", "1,2,3"]) expect(refused(text, "eu")).toThrow(BAD);
  });
});

describe("picking the element", () => {
  const page = `<html><body><script>document.write("<b class='p'>9</b>")</script><div class="p">Last: <b>1,234</b>.<i>50</i> $</div><p class="p">2</p></body></html>`;

  test("the first matching element's whole text is read, entities decoded, scripts ignored", () => {
    expect(String(priceOnPage(page, ".p", "us"))).toBe("1234.5");
    expect(String(priceOnPage("<p>1&nbsp;234,50&nbsp;&euro;</p>", "p", "eu"))).toBe("1234.5");
  });

  test("no match is bad-response; a selector the parser cannot compile is invalid-input", () => {
    expect(() => priceOnPage(page, "#none", "us")).toThrow(BAD);
    expect(() => priceOnPage(page, "div[[", "us")).toThrow(expect.objectContaining({ reason: "invalid-input" }));
    expect([isUsableSelector("div.p > b:first-child"), isUsableSelector("div[["), isUsableSelector("p::text")]).toEqual([true, false, false]);
  });
});
