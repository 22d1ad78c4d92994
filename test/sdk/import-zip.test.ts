import { describe, expect, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import { readWorkbook } from "../../sdk/import/index.ts";
import { isUnpackLimitError, unpackZip, WORKBOOK_LIMITS } from "../../sdk/import/zip.ts";
import { isPluginError } from "../../sdk/index.ts";
import { bombSheet, bombSheetParts, buildXlsx, buildZip, compressRepeated, sheetXml } from "../helpers/archives.ts";

// Decompression bombs are built here at run time: a sheet of millions of identical cells deflates
// about a thousand to one, so a few hundred kilobytes would unpack to gigabytes of objects.

/** The error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

async function expectLimit(promise: Promise<unknown>, limit: string, message: string | RegExp) {
  const error = await rejection(promise);
  expect(isUnpackLimitError(error)).toBe(true);
  expect(isPluginError(error)).toBe(true); // a plugin that rethrows PluginErrors passes the message on
  expect({ limit: (error as any).limit, message: error.message }).toMatchObject({ limit, message: expect.stringMatching(message) });
  return error;
}

const workbook = (rows: unknown[][]) => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), "Movements");
  return new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }));
};

describe("unpackZip: an archive is unpacked within limits, whatever its headers claim", () => {
  test("a normal workbook unpacks whole", async () => {
    const entries = await unpackZip(workbook([["Date", "Amount"], ["2024-01-02", 10]]));
    expect(entries.map((e) => e.name)).toContain("xl/worksheets/sheet1.xml");
    expect(new TextDecoder().decode(entries.find((e) => e.name === "xl/worksheets/sheet1.xml")!.data)).toContain("<sheetData>");
  });

  test("a sheet of 6,000,000 identical cells (under 400 KB) is refused for its cells, before any parser sees it", async () => {
    const bomb = buildXlsx(bombSheet(6_000_000));
    expect(bomb.length).toBeLessThan(400 * 1024);
    await expectLimit(unpackZip(bomb, WORKBOOK_LIMITS, "the spreadsheet"), "cells", /^the spreadsheet has more than 2,000,000 cells$/);
  });

  test("declared sizes over 100 MB are refused from the directory alone", async () => {
    const { head, row, tail } = bombSheetParts();
    const { compressed, size } = await compressRepeated(head, row, 1_000, tail);
    const lying = buildXlsx("", { compressed, declaredSize: 400 * 1024 * 1024 });
    expect(size).toBeLessThan(1024 * 1024);
    await expectLimit(unpackZip(lying, WORKBOOK_LIMITS, "the spreadsheet"), "unpacked_bytes", /unpacks to more than 100 MB/);
  });

  test("an entry declaring 1 KB that inflates past 100 MB is stopped at the limit, not unpacked whole", async () => {
    const { head, row, tail } = bombSheetParts();
    // 220 MB of sheet XML (14 million cells) in a few hundred kilobytes, declared as 1 KB.
    const { compressed, size } = await compressRepeated(head, row, 700_000, tail);
    expect(size).toBeGreaterThan(200 * 1024 * 1024);
    const lying = buildXlsx("", { compressed, declaredSize: 1024 });
    await expectLimit(unpackZip(lying, WORKBOOK_LIMITS, "the spreadsheet"), "unpacked_bytes", /^the spreadsheet unpacks to more than 100 MB$/);
  });

  test("an entry that unpacks to other than its declared size, within the limits, is damaged (a plain error)", async () => {
    const lying = buildXlsx(sheetXml("<row><c><v>1</v></c></row>"), { declaredSize: 10 });
    const error = await rejection(unpackZip(lying));
    expect(isUnpackLimitError(error)).toBe(false);
    expect(error.message).toContain("does not unpack to its declared size");
  });

  test("a hyperlink over a whole sheet counts every cell it covers (the reader would create them all)", async () => {
    const sheet = sheetXml('<row r="1"><c r="A1"><v>1</v></c></row>').replace("</worksheet>", '<hyperlinks><hyperlink ref="A1:XFD1048576" location="x"/></hyperlinks></worksheet>');
    await expectLimit(unpackZip(buildXlsx(sheet)), "cells", /more than 2,000,000 cells/);
  });

  test("more XML elements than the limit are refused (each becomes an object)", async () => {
    const { compressed, size } = await compressRepeated('<?xml version="1.0"?><sst>', "<si><t>x</t></si>", 3_100_000, "</sst>");
    const zip = buildZip([{ name: "xl/sharedStrings.xml", data: "", compressed, declaredSize: size }]);
    await expectLimit(unpackZip(zip), "elements", /more than 6,000,000 XML elements/);
  });

  test("more entries than the limit are refused from the directory", async () => {
    const zip = buildZip(Array.from({ length: 2_001 }, (_, i) => ({ name: `f${i}.txt`, data: "", stored: true })));
    await expectLimit(unpackZip(zip), "entries", /holds more than 2,000 files/);
  });
});

describe("readWorkbook within limits", () => {
  test("a workbook beyond the limits is refused with an error naming the limit (a PluginError)", async () => {
    await expectLimit(readWorkbook(buildXlsx(bombSheet(6_000_000))), "cells", /^the spreadsheet has more than 2,000,000 cells$/);
  });

  test("a huge declared dimension over a few cells reads as the cells' rows, not millions of empty ones", async () => {
    const sheet = sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c><c r="B1" t="inlineStr"><is><t>Amount</t></is></c></row>'
      + '<row r="2"><c r="A2" t="inlineStr"><is><t>2024-01-02</t></is></c><c r="B2"><v>10.5</v></c></row>', "A1:XFD1048576");
    const [first] = await readWorkbook(buildXlsx(sheet));
    expect(first!.rows).toEqual([["Date", "Amount"], ["2024-01-02", "10.5"]]);
  });

  test("two cells at opposite corners of a sheet are refused for the table they would span", async () => {
    const sheet = sheetXml('<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>2</v></c></row>');
    await expectLimit(readWorkbook(buildXlsx(sheet)), "sheet_span", /spans more than 20,000,000 cells \(sheet "Sheet1": 1,000,000 rows × 16,384 columns\)/);
  });

  test("only XLSX and XLS are read: an OpenDocument spreadsheet, an XLSB or a CSV is refused", async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["a", 1]]), "S");
    const ods = new Uint8Array(XLSX.write(book, { type: "array", bookType: "ods" }));
    expect((await rejection(readWorkbook(ods))).message).toContain("OpenDocument");
    const xlsb = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsb" }));
    expect((await rejection(readWorkbook(xlsb))).message).toContain("XLSB");
    expect((await rejection(readWorkbook(new TextEncoder().encode("a,b\n1,2\n")))).message).toContain("not an XLSX or XLS workbook");
  });
});
