import { definePlugin } from "../../sdk/index.ts";
import { pdfTextOf } from "../../sdk/import/pdf.ts";
import { comdirectDocumentConfidence, parseComdirectText } from "./parse.ts";

/**
 * comdirect's PDF documents (code broker_comdirect_pdf): Wertpapierkauf / Wertpapierverkauf (savings
 * plan executions included) and Dividenden- / Ertragsgutschrift, one event per file, read from the
 * PDF's text, before German taxes (comdirect notifies those separately); and the Finanzreport (the cash
 * bookings of the Verrechnungskonto; trades and dividends left to their own documents).
 */
export const brokerComdirectPdfPlugin = definePlugin({
  create: () => ({
    accepts: (file) => (file.format === "pdf" ? comdirectDocumentConfidence(file.head) : 0),
    detectionPriority: 50,
    parse: async (params) => parseComdirectText((await pdfTextOf(params)).text, params.file.filename),
    supportedExtensions: ["pdf"],
  }),
  description: "comdirect PDF documents: Wertpapierkauf/-verkauf (savings plan included) and Dividenden-/Ertragsgutschrift with withholding tax, Finanzreport (Verrechnungskonto: deposits, withdrawals, interest, fees, tax settlements)",
  id: "broker_comdirect_pdf",
  kind: "import-plugin",
  name: "comdirect (PDF)",
  version: "1.2.0",
});

export default brokerComdirectPdfPlugin;
