import { afterAll } from "bun:test";
import {
  type AiExportReader,
  Decimal,
  definePlugin,
  DecimalStringSchema,
  failure,
  type FxRate,
  IsoDateSchema,
  ok,
  PluginError,
  toDecimalString,
  z,
} from "../../sdk/index.ts";
import {
  createFakeContext,
  runAiExportDatasetContract,
  runFxProviderContract,
  runImportPluginContract,
  runQuoteProviderContract,
  runRiskToolContract,
  runScheduledInvestmentProviderContract,
} from "../../sdk/testing/index.ts";

// Small plugins of every kind, so each contract suite runs against a conforming implementation.
const meta = { description: "contract-suite sample", name: "Sample", version: "1.0.0" };
const d = (s: string) => DecimalStringSchema.parse(s);
const day = (s: string) => IsoDateSchema.parse(s);
const EUR = "EUR" as never;

const bank = Bun.serve({ fetch: () => Response.json({ rates: [["2024-01-02", "1.0950"], ["2024-01-03", "1.0920"]] }), port: 0 });
afterAll(() => bank.stop(true));

const fxPlugin = definePlugin({
  ...meta,
  configSchema: z.object({ baseUrl: z.string() }),
  create: (ctx) => ({
    baseCurrencies: [EUR],
    async getRates({ pairs, signal }) {
      const body = await ctx.http.getJson("/rates", { schema: z.object({ rates: z.array(z.tuple([z.string(), z.string()])) }), signal });
      const rates: FxRate[] = body.rates.map(([date, rate]) => ({ date: day(date), rate: d(rate) }));
      return pairs.map((pair) => (pair.quote === "USD" ? ok(rates) : failure(new PluginError("invalid-input", "unsupported pair"))));
    },
    targetCurrencies: ["USD" as never],
  }),
  id: "sample-fx",
  kind: "fx-provider",
});
runFxProviderContract(fxPlugin, {
  context: createFakeContext({ allowedDestinations: [bank.url.host], baseUrl: bank.url.origin, config: { baseUrl: bank.url.origin } }),
  sample: { from: day("2024-01-01"), pairs: [{ base: EUR, quote: "USD" as never }, { base: EUR, quote: "JPY" as never }], to: day("2024-01-05") },
});

runQuoteProviderContract(
  definePlugin({
    ...meta,
    create: () => ({
      getEvents: async () => [{ currency: EUR, date: day("2024-01-03"), type: "DIVIDEND" as const, value: d("0.50") }],
      getHistory: async () => [{ close: d("10.5"), date: day("2024-01-02") }, { close: d("10.7"), date: day("2024-01-03") }],
      getQuotes: async ({ identifiers }) =>
        identifiers.map((id) => (id === "ACME" ? ok({ currency: EUR, date: day("2024-01-03"), price: d("10.7") }) : failure(new PluginError("not-found", id)))),
      search: async () => [{ currency: EUR, identifier: "ACME", name: "Acme Corp" }],
    }),
    id: "sample-quotes",
    kind: "quote-provider",
  }),
  { sample: { identifiers: ["ACME", "NOPE"], query: "acme", range: { from: day("2024-01-01"), to: day("2024-01-31") } } },
);

const Params = z.object({ faceValue: DecimalStringSchema, rate: DecimalStringSchema });
runScheduledInvestmentProviderContract(
  definePlugin({
    ...meta,
    create: () => ({
      generateEvents: ({ params, range }: { params: z.output<typeof Params>; range: { to: string } }) => [
        { currency: EUR, date: day(range.to), type: "INTEREST" as const, value: toDecimalString(new Decimal(params.faceValue).times(params.rate)) },
      ],
      generatePrices: ({ params, range }: { params: z.output<typeof Params>; range: { from: string } }) => [
        { date: day(range.from), value: params.faceValue },
      ],
      paramsSchema: Params,
    }),
    id: "sample-bond",
    kind: "scheduled-investment-provider",
  }),
  { sample: { params: { faceValue: "100", rate: "0.03" }, range: { from: day("2024-01-01"), to: day("2024-12-31") } } },
);

const csv = new TextEncoder().encode("date,type,amount\n2024-01-02,DEPOSIT,100.00\n");
runImportPluginContract(
  definePlugin({
    ...meta,
    create: () => ({
      accepts: (file) => (file.head.startsWith("date,type,amount") ? 0.9 : 0),
      parse: async ({ bytes }) => {
        if (bytes.length === 0) throw new PluginError("invalid-input", "the file is empty");
        const [, line] = new TextDecoder().decode(bytes).split("\n");
        const [date, , amount] = line!.split(",");
        const cash = { amount: d(amount!), currency: EUR };
        return { transactions: [{ cash, date: day(date!), row: 2, type: "DEPOSIT" as const }], warnings: [] };
      },
    }),
    id: "sample-csv",
    kind: "import-plugin",
  }),
  {
    sample: {
      bytes: csv,
      file: { extension: "csv", filename: "export.csv", head: "date,type,amount\n", sizeBytes: csv.length },
      foreign: { extension: "pdf", filename: "statement.pdf", head: "%PDF-1.7", sizeBytes: 9000 },
    },
  },
);

const Returns = z.object({ returns: z.array(DecimalStringSchema).min(1) });
runRiskToolContract(
  definePlugin({
    ...meta,
    create: () => ({
      catalog: { algorithmVersion: "1.0.0", minObservations: 1, outputKind: "kpi", supportedModes: ["historical" as const], supportedScopes: ["asset" as const] },
      compute: (input: z.output<typeof Returns>) => ({
        worst: toDecimalString(Decimal.min(...input.returns.map((r) => new Decimal(r)))),
      }),
      inputSchema: Returns,
      outputSchema: z.object({ worst: DecimalStringSchema }),
    }),
    id: "sample-worst-return",
    kind: "risk-tool",
  }),
  { expectedOutput: { worst: "-0.02" }, sampleInput: { returns: ["0.01", "-0.02", "0.005"] } },
);

const reader: AiExportReader = {
  component: async () => null,
  holdings: async () => [{ assetId: 1, assetName: "Acme", brokerId: 7, currency: EUR, quantity: d("3") }],
  transactions: async () => [],
};
runAiExportDatasetContract(
  definePlugin({
    ...meta,
    create: () => ({
      build: async ({ query, reader: port }) => ({
        data: { holdings: await port.holdings({ asOf: query.period.to, brokerIds: query.brokerIds }) },
        warnings: [],
      }),
      datasetVersion: 1,
      describe: () => ({ domain: "portfolio" as const, periodSemantics: "as_of" as const, supportedDetailLevels: ["standard" as const], title: "Holdings" }),
      id: "portfolio.holdings",
    }),
    id: "sample-holdings",
    kind: "ai-export-dataset",
  }),
  {
    sample: {
      query: { brokerIds: [7], detailLevel: "standard", period: { from: day("2024-01-01"), to: day("2024-01-31") }, targetCurrency: EUR },
      reader,
    },
  },
);
