import { expect, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import { describeFile, describeWorkbook, readCsv } from "../../sdk/import/index.ts";

test("describeWorkbook gives each sheet's name and first rows as text; a text file keeps describeFile's meta", async () => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["Account", "Currency"], ["1", "EUR"], ...Array.from({ length: 40 }, (_, i) => [i, 1.5])]), "CASH");
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["Empty"]]), "Other");
  const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }));
  const meta = await describeWorkbook(bytes, "anything.bin");
  expect(meta.format).toBe("xlsx");
  expect(meta.sheets?.map((s) => s.name)).toEqual(["CASH", "Other"]);
  expect(meta.sheets?.[0]?.rows.slice(0, 3)).toEqual([["Account", "Currency"], ["1", "EUR"], ["0", "1.5"]]);
  expect(meta.sheets?.[0]?.rows).toHaveLength(30);
  const text = new TextEncoder().encode("a,b\n1,2\n");
  expect(await describeWorkbook(text, "x.csv")).toEqual(describeFile(text, "x.csv"));
  const broken = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
  expect((await describeWorkbook(broken, "x.xlsx")).sheets).toBeUndefined();
});

test("readCsv keepEmptyLines keeps blank lines as rows, so index + 1 is the line number", () => {
  const text = "Title\n\n,,\nA,B\n1,2\n";
  expect(readCsv(text).rows).toEqual([["Title"], ["A", "B"], ["1", "2"]]);
  expect(readCsv(text, { keepEmptyLines: true, separator: "," }).rows).toEqual([["Title"], [""], ["", "", ""], ["A", "B"], ["1", "2"]]);
});
