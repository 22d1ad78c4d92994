import { describe, expect, test } from "bun:test";
import * as XLSX from "@e965/xlsx";
import {
  columns, csvFormat, decodeText, describeFile, eachRecord, detectDateOrder, detectDecimalMark, findHeaderRow, parseDate, parseDecimal, parseXml,
  describeWorkbook, readCsv, readWorkbook, sheetFormat, skipper, sniffFormat, sniffSeparator, unreadable,
} from "../../sdk/import/index.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
const str = (d: unknown) => (d === null ? null : String(d));

describe("decodeText: the encoding is sniffed from the bytes", () => {
  test("UTF-8 with and without BOM", () => {
    expect(decodeText(utf8("\uFEFFNestlé"))).toEqual({ bom: true, encoding: "utf-8", text: "Nestlé" });
    expect(decodeText(utf8("Nestlé"))).toEqual({ bom: false, encoding: "utf-8", text: "Nestlé" });
  });

  test("UTF-16 LE and BE with BOM, and LE without BOM", () => {
    const le = new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0xe9, 0x00]);
    expect(decodeText(le)).toEqual({ bom: true, encoding: "utf-16le", text: "Aé" });
    const be = new Uint8Array([0xfe, 0xff, 0x00, 0x41, 0x00, 0xe9]);
    expect(decodeText(be)).toEqual({ bom: true, encoding: "utf-16be", text: "Aé" });
    const bare = new Uint8Array([...("Date;Qty\n1;2").split("").flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(decodeText(bare)).toEqual({ bom: false, encoding: "utf-16le", text: "Date;Qty\n1;2" });
  });

  test("bytes that are not UTF-8 are Windows-1252 (ISO-8859-1's printable range included)", () => {
    const bytes = new Uint8Array([0x4b, 0x61, 0x75, 0x66, 0x20, 0x80, 0x20, 0x4e, 0x65, 0x73, 0x74, 0x6c, 0xe9]);
    expect(decodeText(bytes)).toEqual({ bom: false, encoding: "windows-1252", text: "Kauf € Nestlé" });
  });
});

describe("sniffSeparator and readCsv", () => {
  test("the separator is the one with a stable count outside quotes: ; , tab |", () => {
    expect(sniffSeparator("a;b;c\n1,5;2;3\n")).toBe(";");
    expect(sniffSeparator("a,b\n\"1;2\",3\n")).toBe(",");
    expect(sniffSeparator("a\tb\n1\t2")).toBe("\t");
    expect(sniffSeparator("a|b\n1|2")).toBe("|");
    expect(sniffSeparator("single\n1")).toBe(",");
    expect(sniffSeparator("Movements\nAccount: 1\nA;B;C\n1,5;2;3\n4;5,25;6\n")).toBe(";");
  });

  test("quoted fields keep separators, doubled quotes and line breaks; blank lines are dropped", () => {
    const table = readCsv(utf8('Name;Amount\n"Kauf ""Nestlé""; Aktie";"1.234,56"\n\n"two\nlines";-10.000,5\n'));
    expect(table.separator).toBe(";");
    expect(table.rows).toEqual([["Name", "Amount"], ['Kauf "Nestlé"; Aktie', "1.234,56"], ["two\nlines", "-10.000,5"]]);
    expect(table.lines).toEqual([1, 2, 4]);
  });

  test("each row keeps the file line it starts on: blank lines, lines of empty cells and quoted line breaks counted", () => {
    const table = readCsv(utf8('Title,,\r\n,,\r\nA,B,C\r\n1,"x\r\ny",3\r\n\r\n4,5,6\r\n'));
    expect(table.rows).toEqual([["Title", "", ""], ["A", "B", "C"], ["1", "x\r\ny", "3"], ["4", "5", "6"]]);
    expect(table.lines).toEqual([1, 3, 4, 7]);
  });

  test("headers are found below a title block and read by any of their names, accents and case ignored", () => {
    const rows = [["Report"], ["Période", "Montant (EUR)"], ["2024-01-02", "5"]];
    expect(findHeaderRow(rows, ["periode", "montant eur"])).toBe(1);
    const cols = columns(rows[1]!);
    expect(cols.get(rows[2]!, "Date", "Periode")).toBe("2024-01-02");
    expect(cols.get(rows[2]!, "Missing")).toBe("");
    expect(cols.has("MONTANT (eur)")).toBe(true);
  });

  test("eachRecord walks the rows below the header, read by name, numbered by their line in the file", () => {
    const rows = [["Report"], ["Date", "Amount"], [" 2024-01-02 ", "5"], ["2024-01-03"]];
    const seen: unknown[] = [];
    eachRecord(rows, 1, columns(rows[1]!), ({ get, row, cells }) => seen.push([row, get("Datum", "Date"), get("Amount"), cells.length]));
    expect(seen).toEqual([[3, "2024-01-02", "5", 2], [4, "2024-01-03", "", 1]]);
    const lines: number[] = [];
    eachRecord(rows, 1, columns(rows[1]!), ({ row }) => lines.push(row), 10); // a dropped blank line counted back
    expect(lines).toEqual([10, 11]);
  });
});

describe("csvFormat: a one-table CSV report described by its header", () => {
  const meta = (text: string) => describeFile(utf8(text), "upload.csv");
  const ACME = csvFormat({ headerWithin: 3, notFound: "This is not an Acme export", required: ["Date", "Type", "Amount"], separators: [";"] });

  test("accepts() gives the confidence when the header is within reach, 0 otherwise", () => {
    expect(ACME.accepts(meta("Date;Type;Amount\n2024-01-02;Buy;5\n"))).toBe(0.95);
    expect(ACME.accepts(meta("Acme export\n\nDate;Type;Amount;Note\n"))).toBe(0.95); // blank lines do not count
    expect(ACME.accepts(meta("a\nb\nc\nDate;Type;Amount\n"))).toBe(0); // below headerWithin
    expect(ACME.accepts(meta("Date,Type,Amount\n"))).toBe(0); // not its separator
    expect(ACME.accepts(meta(""))).toBe(0);
    expect(ACME.accepts({ ...meta("Date;Type;Amount\n"), format: "xlsx" })).toBe(0);
    const other = csvFormat({ confidence: 0.6, excludeMarkers: ["Closed positions"], notFound: "-", required: ["date", "amount"] });
    expect(other.accepts(meta("date,amount\n1,2\n"))).toBe(0.6); // separator sniffed
    expect(other.accepts(meta("date,amount\nCLOSED POSITIONS,2\n"))).toBe(0);
  });

  test("several separators are tried in turn", () => {
    const both = csvFormat({ notFound: "-", required: ["date", "amount"], separators: [",", ";"] });
    expect(both.read("date;amount\n1,5;2\n").rows[1]).toEqual(["1,5", "2"]);
    expect(both.read("date,amount\n1;5,2\n").rows[1]).toEqual(["1;5", "2"]);
  });

  test("read() refuses an empty file and a file without the header, with the format's message", () => {
    expect(() => ACME.read(new Uint8Array())).toThrow("The file is empty");
    expect(() => ACME.read(utf8("Foo;Bar\n1;2\n"))).toThrow("This is not an Acme export");
    expect(ACME.match(utf8("Foo;Bar\n1;2\n"))).toBeNull(); // for an importer of several formats: try the next
    expect(ACME.match(new Uint8Array())).toBeNull();
    const { read } = ACME; // plain functions: they may be passed around
    expect(read("Date;Type;Amount\n").at).toBe(0);
  });

  test("walk() hands over every record below the header with its true line, and returns what mapRow returned", () => {
    const table = ACME.read(utf8("Acme export\n\nDate;Type;Amount\n2024-01-02;Buy;5\n\n2024-01-03;\"Sell\nall\";-5\n2024-01-04;Fee;1\n"));
    expect(table.at).toBe(1);
    expect(table.cols.has("amount")).toBe(true);
    const seen = ACME.walk(table, ({ get, row }) => [row, get("Type"), get("Amount")]);
    expect(seen).toEqual([[4, "Buy", "5"], [6, "Sell\nall", "-5"], [8, "Fee", "1"]]);
  });
});

describe("parseDecimal: locale numbers become exact decimals", () => {
  test.each([
    ["1,234.56", "auto", "1234.56"], ["1.234,56", "auto", "1234.56"], ["-10.000,5", ",", "-10000.5"],
    ["1,5", "auto", "1.5"], ["1,234,567", "auto", "1234567"], ["1.234.567", "auto", "1234567"], ["(12.50)", ".", "-12.5"],
    ["12.50-", ".", "-12.5"], ["+3", ".", "3"], ["€ 1.000,00", ",", "1000"], ["EUR 1,000.00", ".", "1000"], ["1'234.5", ".", "1234.5"],
    ["1 234,5", ",", "1234.5"], ["1.5E-3", ".", "0.0015"], ["0.1", ".", "0.1"], ["−7", ".", "-7"], ["1,234", ".", "1234"],
  ] as const)("%s (%s) is %s", (input, mark, expected) => {
    expect(str(parseDecimal(input, mark)?.toFixed())).toBe(expected);
  });

  test("text that is no number is null, never NaN or a guess", () => {
    for (const input of ["", "-", "n/a", "abc", "1.2.3,4,5", "1,23,4", null, undefined]) expect(parseDecimal(input as string)).toBeNull();
  });

  test("an Excel double goes through toPrecision(15), never the float's artefacts", () => {
    expect(parseDecimal(0.1 + 0.2)?.toFixed()).toBe("0.3");
  });

  test("the decimal mark of a column is taken from the values that decide it", () => {
    expect(detectDecimalMark(["1.234,5", "12"])).toBe(",");
    expect(detectDecimalMark(["1,234.5", "7,5"])).toBe(".");
    expect(detectDecimalMark(["12", "1,234"])).toBe(".");
  });
});

describe("parseDate: day-first, month-first, ISO and named months", () => {
  test.each([
    ["2024-01-02", "auto", "2024-01-02"], ["2024-01-02T23:30:00Z", "auto", "2024-01-02"], ["2024/01/02 10:00", "auto", "2024-01-02"],
    ["02/01/2024", "DMY", "2024-01-02"], ["02/01/2024", "MDY", "2024-02-01"], ["13/01/2024", "auto", "2024-01-13"],
    ["01/13/2024", "auto", "2024-01-13"], ["02.01.2024", "DMY", "2024-01-02"], ["02-01-24", "DMY", "2024-01-02"],
    ["20240102", "auto", "2024-01-02"], ["2 Jan 2024", "auto", "2024-01-02"], ["Jan 2, 2024", "auto", "2024-01-02"],
    ["02-gen-2024", "auto", "2024-01-02"], ["3 Mär 2024", "auto", "2024-03-03"], ["02/01/2024 14:05:11", "DMY", "2024-01-02"],
  ] as const)("%s (%s) is %s", (input, order, expected) => {
    expect(parseDate(input, order)).toBe(expected as never);
  });

  test("impossible days and non-dates are null", () => {
    for (const input of ["2023-02-29", "31/04/2024", "yesterday", "", "13/13/2024"]) expect(parseDate(input, "DMY")).toBeNull();
  });

  test("the order of a column is decided by a number over 12", () => {
    expect(detectDateOrder(["01/02/2024", "13/02/2024"])).toBe("DMY");
    expect(detectDateOrder(["01/02/2024", "02/13/2024"])).toBe("MDY");
    expect(detectDateOrder(["01/02/2024"], "MDY")).toBe("MDY");
  });
});

describe("sniffFormat and describeFile: magic bytes, never the extension", () => {
  test("zip, OLE, PDF, XML, text and binary", () => {
    expect(sniffFormat(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1]))).toBe("xlsx");
    expect(sniffFormat(new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 1]))).toBe("xls");
    expect(sniffFormat(utf8("%PDF-1.7\n"))).toBe("pdf");
    expect(sniffFormat(utf8("\uFEFF  <?xml version=\"1.0\"?><a/>"))).toBe("xml");
    expect(sniffFormat(utf8("Date,Amount\n"))).toBe("text");
    expect(sniffFormat(new Uint8Array([0xff, 0xfe, 0x41, 0x00]))).toBe("text");
    expect(sniffFormat(new Uint8Array([1, 2, 3, 0, 5, 6]))).toBe("binary");
  });

  test("the head is decoded with the sniffed encoding and is empty for spreadsheets", () => {
    const latin = new Uint8Array([0x44, 0x61, 0x74, 0x75, 0x6d, 0x3b, 0x42, 0xe9]);
    expect(describeFile(latin, "Export.CSV")).toEqual({ extension: "csv", filename: "Export.CSV", format: "text", head: "Datum;Bé", sizeBytes: 8 });
    expect(describeFile(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), "a.xlsx").head).toBe("");
  });
});

describe("parseXml: the safe set-up", () => {
  test("attribute values stay strings, listed tags are arrays, a DOCTYPE's entities are not expanded", () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "AAAA">]><FlexStatement><Trades><Trade isin="1E5" q="0.10" acct="00123" n="&a;"/></Trades></FlexStatement>`;
    const doc = parseXml(xml, ["Trade"]) as any;
    expect(doc.FlexStatement.Trades.Trade).toEqual([{ isin: "1E5", q: "0.10", acct: "00123", n: "&a;" }]);
  });

  test("malformed XML throws", () => {
    expect(() => parseXml("<a><b></a>", [])).toThrow();
  });
});

describe("readWorkbook: spreadsheets as text rows", () => {
  test("numbers are exact decimal strings and date cells UTC days, whatever the TZ", async () => {
    const sheet = XLSX.utils.aoa_to_sheet([["Date", "Amount", "Name"], [45293, 0.1 + 0.2, "ACME"]]);
    sheet["A2"]!.z = "yyyy-mm-dd";
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, "Movements");
    const bytes = new Uint8Array(XLSX.write(book, { type: "array", bookType: "xlsx" }));
    const [first] = await readWorkbook(bytes);
    expect(first).toEqual({ name: "Movements", rows: [["Date", "Amount", "Name"], ["2024-01-02", "0.3", "ACME"]] });
    const xls = new Uint8Array(XLSX.write(book, { type: "array", bookType: "biff8" }));
    expect((await readWorkbook(xls))[0]!.rows[1]).toEqual(["2024-01-02", "0.3", "ACME"]);
  });
});

describe("sheetFormat: a one-table workbook report described by its sheet and header", () => {
  const book = (sheets: Record<string, unknown[][]>) => {
    const wb = XLSX.utils.book_new();
    for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
    return new Uint8Array(XLSX.write(wb, { type: "array", bookType: "xlsx" }) as ArrayBuffer);
  };
  const ACME = sheetFormat({
    sheet: "Activity", required: ["Date", "Type", "Amount", "Position ID"], readRequired: ["Date", "Type", "Amount"],
    sheetNotFound: 'No sheet "Activity" (is it an Acme statement?)', headerNotFound: "The Activity table lacks Date, Type or Amount",
  });
  const good = book({ Summary: [["Name", "x"]], " activity ": [["Date", "Type", "Amount", "Position ID"], ["2024-01-02", "Deposit", 100, ""], [], ["2024-01-03", "Fee", -1, ""]], Closed: [["ISIN"], ["IE00B4L5Y983"]] });

  test("accepts: the sheet (name trimmed, any case) with its header in the host's sheets; 0.05 without sheets; 0 for text or another workbook", async () => {
    expect(ACME.accepts(await describeWorkbook(good, "a.xlsx"))).toBe(0.95);
    expect(ACME.accepts({ ...(await describeWorkbook(good, "a.xlsx")), sheets: undefined } as never)).toBe(0.05);
    expect(ACME.accepts(describeFile(utf8("Date,Type,Amount,Position ID\n"), "a.csv"))).toBe(0);
    expect(ACME.accepts(await describeWorkbook(book({ Activity: [["Date", "Type", "Amount"]] }), "b.xlsx"))).toBe(0);
  });

  test("read and walk: every row below the header (a blank one too) with its sheet row number, every sheet for a second table", async () => {
    const table = await ACME.read(good);
    expect(table.at).toBe(0);
    expect(table.sheets.map((s) => s.name)).toEqual(["Summary", " activity ", "Closed"]);
    expect(ACME.walk(table, ({ get, row }) => `${row} ${get("Type")} ${get("Amount")}`)).toEqual(["2 Deposit 100", "3  ", "4 Fee -1"]);
  });

  test("read refuses, saying why: a workbook cut short, a missing sheet, a missing header, an empty file", async () => {
    await expect(ACME.read(good.slice(0, good.length / 2))).rejects.toThrow(/cut short or damaged/);
    await expect(ACME.read(book({ Other: [["Date"]] }))).rejects.toThrow('No sheet "Activity" (is it an Acme statement?)');
    await expect(ACME.read(book({ Activity: [["Date", "Kind", "Amount"]] }))).rejects.toThrow("The Activity table lacks Date, Type or Amount");
    await expect(ACME.read(new Uint8Array())).rejects.toThrow("The file is empty");
  });
});

describe("skipper and unreadable: a line left out is listed with its reason", () => {
  test("skip keeps the warning and lists the line with the warning's message", () => {
    const warnings: never[] = [];
    const skippedRows: never[] = [];
    const skip = skipper(warnings, skippedRows);
    expect(skip({ code: "rowSkipped", message: unreadable(6, "Amount", "12x4", "an amount"), row: 6, severity: "warning" })).toBe(1);
    expect(skippedRows).toEqual([{ line: 6, reason: 'Line 6: Amount "12x4" is not an amount' }] as never);
    expect(warnings).toEqual([{ code: "rowSkipped", message: 'Line 6: Amount "12x4" is not an amount', row: 6, severity: "warning" }] as never);
  });

  test("unreadable names an empty cell and cuts a long value", () => {
    expect(unreadable(9, "Date", " ", "a date (DD/MM/YYYY)")).toBe("Line 9: Date is empty, expected a date (DD/MM/YYYY)");
    expect(unreadable(3, "Total", "x".repeat(50), "an amount")).toBe(`Line 3: Total "${"x".repeat(40)}..." is not an amount`);
  });
});
