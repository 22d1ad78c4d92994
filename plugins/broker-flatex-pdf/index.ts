import { definePlugin } from "../../sdk/index.ts";
import { pdfTextOf } from "../../sdk/import/pdf.ts";
import { flatexDocumentConfidence, parseFlatexText } from "./parse.ts";

/**
 * flatex's and DEGIRO Germany's PDF documents, issued by flatexDEGIRO Bank or, 2017–2020, FinTech Group Bank (code broker_flatex_pdf):
 * Wertpapierabrechnung Kauf / Verkauf (savings plan executions included), Dividendengutschrift and
 * Ertragsmitteilung, one event per file, and the account statement (Kontoauszug: its cash bookings; trades
 * and dividends left to their own documents), read from the PDF's text.
 */
export const brokerFlatexPdfPlugin = definePlugin({
  create: () => ({
    accepts: (file) => (file.format === "pdf" ? flatexDocumentConfidence(file.head) : 0),
    detectionPriority: 50,
    parse: async (params) => parseFlatexText((await pdfTextOf(params)).text, params.file.filename),
    supportedExtensions: ["pdf"],
  }),
  description: "flatex / DEGIRO Germany PDF documents (flatexDEGIRO Bank, FinTech Group Bank): contract notes (buy, sell, savings plan), dividend notices with taxes withheld and account statements (transfers, interest, fees)",
  id: "broker_flatex_pdf",
  kind: "import-plugin",
  name: "flatex / DEGIRO Germany (PDF)",
  version: "1.3.0",
});

export default brokerFlatexPdfPlugin;
