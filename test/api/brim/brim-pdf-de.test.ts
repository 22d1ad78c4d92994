import { beforeAll, expect, test } from "bun:test";
import { type ApiClient } from "../../helpers/client.ts";
import { Decimal } from "../../../sdk/index.ts";
import { useApi } from "../../helpers/server.ts";
import { createBroker, parsed, sample, uploaded } from "./helpers.ts";

// The German banks' PDF documents through the API: the host reads each PDF's text in the worker pool,
// its own importer claims it first, and the parse gives the document's rows (a dividend's TAX row
// beside it), each document's rows summing to the amount the bank booked.
const api = useApi({ users: ["pia"] });
let pia: ApiClient;
let broker: number;
beforeAll(async () => {
  pia = api.as.pia!;
  broker = await createBroker(pia, "german pdf broker");
});

for (const [dir, plugin, format, booked] of [
  ["comdirect-pdf", "broker_comdirect_pdf", "comdirect/pdf/dividend", "34"],
  ["ing-pdf", "broker_ing_pdf", "ing/pdf/dividend", "29.78"],
  ["consorsbank-pdf", "broker_consorsbank_pdf", "consorsbank/pdf/dividend", "23.83"],
  ["flatex-pdf", "broker_flatex_pdf", "flatex/pdf/dividend", "21.9"],
] as const) {
  test(`a ${dir} dividend notice is claimed by ${plugin} and parsed into a DIVIDEND and its TAX row summing to ${booked}`, async () => {
    const file = await uploaded(pia, broker, "dividende.pdf", sample(dir, "dividende.pdf"));
    expect(file.compatible_plugins[0]).toBe(plugin);
    const result = await parsed(pia, file.file_id, broker);
    expect(result.plugin_code).toBe(plugin);
    expect(result.detected_format).toBe(format);
    expect(result.transactions.map((t: any) => t.type)).toEqual(["DIVIDEND", "TAX"]);
    const total = result.transactions.reduce((acc: Decimal, t: any) => acc.plus(t.cash.amount), new Decimal(0));
    expect(total.toFixed()).toBe(booked);
  });
}
