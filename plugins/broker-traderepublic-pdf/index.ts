import { definePlugin } from "../../sdk/index.ts";
import { pdfTextOf } from "../../sdk/import/pdf.ts";
import { parseTradeRepublicText, trDocumentConfidence } from "./parse.ts";

/**
 * Trade Republic's PDF documents (code broker_traderepublic_pdf): securities settlements (buy, sell),
 * savings plan executions, dividends and interest, in German or English, one event per file, and the monthly
 * account statement in its 2020–2023 and 2024 layouts (its cash rows; trades and dividends left to their own documents). Read from the PDF's
 * text (`pdfText`), recognised by the bank's name and the document's title.
 */
export const brokerTraderepublicPdfPlugin = definePlugin({
  create: () => ({
    accepts: (file) => (file.format === "pdf" ? trDocumentConfidence(file.head) : 0),
    detectionPriority: 50,
    parse: async (params) => parseTradeRepublicText((await pdfTextOf(params)).text, params.file.filename),
    supportedExtensions: ["pdf"],
  }),
  description: "Trade Republic PDF documents (German or English): securities settlements, savings plan executions, dividends with withholding tax, interest, account statements of 2020–2023 and since 2024 (deposits, withdrawals, card payments, interest, fees)",
  id: "broker_traderepublic_pdf",
  kind: "import-plugin",
  name: "Trade Republic (PDF)",
  version: "1.3.0",
});

export default brokerTraderepublicPdfPlugin;
