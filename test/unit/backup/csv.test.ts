import { describe, expect, test } from "bun:test";
import { csvField, csvLine, neutraliseFormula } from "../../../core/backup/csv.ts";

describe("CSV writer: formula injection", () => {
  test("a text cell starting with = + - @ tab or CR gets a leading quote; others are unchanged", () => {
    for (const c of ["=", "+", "-", "@", "\t", "\r"]) expect(neutraliseFormula(`${c}SUM(A1)`)).toBe(`'${c}SUM(A1)`);
    for (const text of ["SUM(A1)", "a=b", " =x", "'=x", "", "2024-01-02"]) expect(neutraliseFormula(text)).toBe(text);
  });

  test("the column's kind decides, not the value: numbers stay as stored, text that looks like a number is neutralised", () => {
    expect(csvLine(["-12.50", "1e-7", "-12.50", "=1+1", null], ["number", "number", "text", "text", "text"]))
      .toBe("-12.50,1e-7,'-12.50,'=1+1,\r\n");
    expect(csvField("-3", "number")).toBe("-3");
    expect(csvField("-3")).toBe("'-3");
  });

  test("neutralised cells are still quoted by RFC 4180 when they hold quotes, commas or line breaks", () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField("\rcmd")).toBe(`"'\rcmd"`);
    expect(csvLine(["date", "notes"])).toBe("date,notes\r\n");
  });
});
