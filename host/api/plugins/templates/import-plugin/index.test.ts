import { describeFile } from "@portfolio-tracker/sdk/import";
import { createFakeContext, expect, runImportPluginContract, test } from "@portfolio-tracker/sdk/testing";
import plugin from "./index.ts";

const csv = (text: string) => new TextEncoder().encode(text);
const bytes = csv(`Date,Type,Symbol,Quantity,Amount,Currency
2024-01-02,DEPOSIT,,,1000.00,EUR
2024-01-03,BUY,ACME,4,-402.50,EUR
2024-01-03,FEE,,,-1.00,EUR
2024-02-01,SPLIT,ACME,4,0,EUR
2024-03-15,DIVIDEND,ACME,,3.20,EUR
`);
const foreignBytes = csv("Datum;Aktion;ISIN;Stück\n02.01.2024;Kauf;DE0001;1\n");

runImportPluginContract(plugin, {
  sample: { bytes, file: describeFile(bytes, "tiny.csv"), foreign: describeFile(foreignBytes, "other.csv"), foreignBytes },
});

test("the sample becomes ledger rows; a row of an unknown type is a warning", async () => {
  const importer = await plugin.create(createFakeContext());
  const { transactions, warnings } = await importer.parse({ bytes, file: describeFile(bytes, "tiny.csv") });
  expect(transactions.map((t) => [t.row, t.type, t.date, t.symbol ?? "", t.quantity, t.cash?.amount])).toEqual([
    [2, "DEPOSIT", "2024-01-02", "", "0", "1000"],
    [3, "BUY", "2024-01-03", "ACME", "4", "-402.5"],
    [4, "FEE", "2024-01-03", "", "0", "-1"],
    [6, "DIVIDEND", "2024-03-15", "ACME", "0", "3.2"],
  ]);
  expect(warnings.map((w) => w.row)).toEqual([5]);
});
