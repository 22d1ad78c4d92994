import { definePlugin } from "../../sdk/index.ts";
import { pdfTextOf } from "../../sdk/import/pdf.ts";
import { parseScalableText, scalableDocumentConfidence } from "./parse.ts";

/**
 * Scalable Capital's PDF documents (code broker_scalable_pdf), its own (Scalable Capital Bank, since 2025)
 * and Baader Bank's before: contract notes (buy, sell, savings plan executions; the own ones in German or
 * English) and dividend notes, one event per file, and its own monthly account statement (cash bookings;
 * trades and distributions left to their notes), read from the PDF's text.
 */
export const brokerScalablePdfPlugin = definePlugin({
  create: () => ({
    accepts: (file) => (file.format === "pdf" ? scalableDocumentConfidence(file.head) : 0),
    detectionPriority: 50,
    parse: async (params) => parseScalableText((await pdfTextOf(params)).text, params.file.filename),
    supportedExtensions: ["pdf"],
  }),
  description: "Scalable Capital PDF documents (Scalable Capital Bank, and Baader Bank before): contract notes (buy, sell, savings plan; German or English), dividend notes with taxes and the monthly account statement (transfers, interest and its taxes, fees)",
  id: "broker_scalable_pdf",
  kind: "import-plugin",
  name: "Scalable Capital (PDF)",
  version: "1.3.0",
});

export default brokerScalablePdfPlugin;
