import { definePlugin } from "../../sdk/index.ts";
import { pdfTextOf } from "../../sdk/import/pdf.ts";
import { consorsbankDocumentConfidence, parseConsorsbankText } from "./parse.ts";

/**
 * Consorsbank's PDF documents (code broker_consorsbank_pdf): contract notes (KAUF / VERKAUF, savings
 * plan executions included) and Dividenden- / Ertragsgutschrift, one event per file, read from the PDF's text;
 * and the Kontoauszug of the Verrechnungskonto (its cash bookings; trades left to their contract notes).
 */
export const brokerConsorsbankPdfPlugin = definePlugin({
  create: () => ({
    accepts: (file) => (file.format === "pdf" ? consorsbankDocumentConfidence(file.head) : 0),
    detectionPriority: 50,
    parse: async (params) => parseConsorsbankText((await pdfTextOf(params)).text, params.file.filename),
    supportedExtensions: ["pdf"],
  }),
  description: "Consorsbank PDF documents: contract notes (buy, sell, savings plan) and Dividenden-/Ertragsgutschrift with withholding and domestic taxes, Kontoauszug of the Verrechnungskonto (deposits, withdrawals, interest, fees)",
  id: "broker_consorsbank_pdf",
  kind: "import-plugin",
  name: "Consorsbank (PDF)",
  version: "1.2.0",
});

export default brokerConsorsbankPdfPlugin;
