import { definePlugin } from "../../sdk/index.ts";
import { pdfTextOf } from "../../sdk/import/pdf.ts";
import { ingDocumentConfidence, parseIngText } from "./parse.ts";

/**
 * ING Germany's (ING-DiBa) PDF documents (code broker_ing_pdf): Wertpapierabrechnung Kauf / Verkauf /
 * Kauf aus Sparplan and Dividenden- / Ertragsgutschrift, one event per file, read from the PDF's text; and the
 * Kontoauszug of the account the depot settles through (its cash bookings; trades left to their contract notes).
 */
export const brokerIngPdfPlugin = definePlugin({
  create: () => ({
    accepts: (file) => (file.format === "pdf" ? ingDocumentConfidence(file.head) : 0),
    detectionPriority: 50,
    parse: async (params) => parseIngText((await pdfTextOf(params)).text, params.file.filename),
    supportedExtensions: ["pdf"],
  }),
  description: "ING Germany (ING-DiBa) PDF documents: Wertpapierabrechnung Kauf/Verkauf (savings plan included) and Dividenden-/Ertragsgutschrift with withholding and domestic taxes, Kontoauszug (Girokonto, Extra-Konto: deposits, withdrawals, interest, fees, taxes)",
  id: "broker_ing_pdf",
  kind: "import-plugin",
  name: "ING Germany (PDF)",
  version: "1.2.0",
});

export default brokerIngPdfPlugin;
