import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useBrowser } from "../helpers/browser.ts";

// The import wizard with broker PDFs: several chosen at once are read into one preview, and a
// failed reading offers the documents' anonymised text, ready to copy into a bug report.
const b = useBrowser({ name: "import-pdfs", users: ["pia"] });
const FIXTURES = join(import.meta.dir, "..", "fixtures");
const kauf = readFileSync(join(FIXTURES, "brim", "traderepublic-pdf", "kauf-de.pdf"));
const dividende = readFileSync(join(FIXTURES, "brim", "traderepublic-pdf", "dividende-de.pdf"));
const scan = readFileSync(join(FIXTURES, "pdf", "bad", "image-only.pdf"));

test("several PDFs chosen at once are read into one preview; a failed reading shows their anonymised text", async () => {
  await b.api.as.pia!.post("/brokers", [{ name: "PDF broker" }]);
  const page = await b.page({ user: "pia" });
  await page.goto(b.url("/import"));
  await page.getByLabel("Into broker").selectOption({ label: "PDF broker" });
  await page.getByLabel("Report file").setInputFiles([
    { name: "kauf.pdf", mimeType: "application/pdf", buffer: kauf },
    { name: "dividende.pdf", mimeType: "application/pdf", buffer: dividende },
    { name: "scan.pdf", mimeType: "application/pdf", buffer: scan },
  ]);
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByText("kauf and 2 more.zip: recognised by").waitFor();
  await page.getByRole("button", { name: "Read the report" }).click();
  // The buy and its fee, the dividend and its tax: four rows from two documents; the scan is left out.
  await page.getByRole("heading", { name: /^4\. Rows \(\d+ of 4 selected\)/ }).waitFor();

  // Read with a reader that cannot: the wizard offers the documents' text, anonymised.
  await page.getByLabel("Reader").selectOption({ value: "broker_generic_csv" });
  await page.getByRole("button", { name: "Read the report" }).click();
  await page.getByRole("button", { name: "Get the anonymised text" }).click();
  const text = await page.getByLabel("Anonymised text", { exact: true }).inputValue();
  expect(text).toContain("=== kauf.pdf ===");
  expect(text).toContain("Xxxxx Xxxxxxxx  SEITE  1 von 1");
  expect(text).not.toContain("Erika");
  expect(text).not.toContain("DE02100100100006820101");
  expect(text).toMatch(/=== scan\.pdf ===\n\(no text: .*no text/);
  await b.shot(page, "import-pdf-text");
  expect(b.errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
}, 60_000);
