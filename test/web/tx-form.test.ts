import { describe, expect, test } from "bun:test";
import { loadLanguage, setLanguage } from "../../web/src/lib/i18n.ts";
import { typesResponse } from "../../host/api/transactions/transaction-types.schema.ts";
import {
  checkForm as check, conversionCost, emptyForm, fromTransaction as fromTx, issuesToErrors as toErrors, toCreates as creates, txRules, txTypeLabel,
  visibleFields as fields,
} from "../../web/src/lib/tx-form.ts";

// The form reads the rules `GET /transactions/types` serves: these are the server's own.
const rules = txRules(typesResponse().transaction_types);
const TX_TYPES = [...rules.keys()];
const visibleFields = (...a: Parameters<typeof fields> extends [unknown, ...infer R] ? R : never) => fields(rules, ...a);
const checkForm = (...a: Parameters<typeof check> extends [unknown, ...infer R] ? R : never) => check(rules, ...a);
const toCreates = (...a: Parameters<typeof creates> extends [unknown, ...infer R] ? R : never) => creates(rules, ...a);
const fromTransaction = (...a: Parameters<typeof fromTx> extends [unknown, ...infer R] ? R : never) => fromTx(rules, ...a);
const issuesToErrors = (...a: Parameters<typeof toErrors> extends [unknown, ...infer R] ? R : never) => toErrors(rules, ...a);

const base = { broker_id: "1", date: "2024-05-02", currency: "EUR" };

describe("fields per type", () => {
  test("each type shows what it needs and nothing it forbids", () => {
    expect(visibleFields("BUY")).toEqual(["type", "broker_id", "date", "asset_id", "quantity", "amount", "currency", "description", "tags"]);
    expect(visibleFields("DEPOSIT")).not.toContain("asset_id");
    expect(visibleFields("DEPOSIT")).not.toContain("quantity");
    expect(visibleFields("ADJUSTMENT")).not.toContain("amount");
    expect(visibleFields("ADJUSTMENT")).toContain("cost_basis");
    expect(visibleFields("TRANSFER")).toEqual(expect.arrayContaining(["to_broker_id", "asset_id", "quantity", "cost_basis"]));
    expect(visibleFields("FX_CONVERSION")).toEqual(expect.arrayContaining(["amount", "currency", "to_amount", "to_currency"]));
    expect(visibleFields("CASH_TRANSFER")).toContain("to_broker_id");
  });
});

describe("signs the ledger expects from positive inputs", () => {
  test("BUY: quantity up, cash out", () => {
    const rows = toCreates(emptyForm({ ...base, type: "BUY", asset_id: "7", quantity: "10", amount: "1000.50" }));
    expect(rows).toEqual([{ type: "BUY", date: "2024-05-02", broker_id: 1, asset_id: 7, quantity: "10", cash: { code: "EUR", amount: "-1000.50" } }]);
  });
  test("SELL: quantity down, cash in", () => {
    const [row] = toCreates(emptyForm({ ...base, type: "SELL", asset_id: "7", quantity: "4", amount: "500" }));
    expect(row!.quantity).toBe("-4");
    expect(row!.cash).toEqual({ code: "EUR", amount: "500" });
  });
  test("cash-only types", () => {
    expect(toCreates(emptyForm({ ...base, type: "WITHDRAWAL", amount: "20" }))[0]!.cash!.amount).toBe("-20");
    expect(toCreates(emptyForm({ ...base, type: "FEE", amount: "1.5" }))[0]!.cash!.amount).toBe("-1.5");
    expect(toCreates(emptyForm({ ...base, type: "DIVIDEND", asset_id: "3", amount: "7" }))[0]).toMatchObject({ quantity: "0", asset_id: 3, cash: { amount: "7" } });
    expect(toCreates(emptyForm({ ...base, type: "DEPOSIT", asset_id: "3", amount: "7" }))[0]!.asset_id).toBeUndefined();
  });
  test("ADJUSTMENT keeps the typed sign and sends a cost basis only for added units", () => {
    const add = toCreates(emptyForm({ ...base, type: "ADJUSTMENT", asset_id: "3", quantity: "5", cost_basis: "12" }), { assetCurrency: "USD" })[0]!;
    expect(add).toMatchObject({ quantity: "5", cost_basis_override: { code: "USD", amount: "12" } });
    expect(add.cash).toBeUndefined();
    const remove = toCreates(emptyForm({ ...base, type: "ADJUSTMENT", asset_id: "3", quantity: "-5", cost_basis: "12" }), { assetCurrency: "USD" })[0]!;
    expect(remove.quantity).toBe("-5");
    expect(remove.cost_basis_override).toBeUndefined();
  });
});

describe("pairs become two legs with one link_uuid", () => {
  test("TRANSFER: out of the sender, into the receiver with the cost basis", () => {
    const rows = toCreates(emptyForm({ ...base, type: "TRANSFER", asset_id: "3", quantity: "2", to_broker_id: "2", cost_basis: "9.5" }), { linkUuid: "L", assetCurrency: "EUR" });
    expect(rows.map((r) => [r.broker_id, r.quantity, r.link_uuid, r.cost_basis_override?.amount])).toEqual([[1, "-2", "L", undefined], [2, "2", "L", "9.5"]]);
  });
  test("FX_CONVERSION: one broker, two currencies, opposite signs", () => {
    const rows = toCreates(emptyForm({ ...base, type: "FX_CONVERSION", amount: "100", to_amount: "108.2", to_currency: "usd" }), { linkUuid: "L" });
    expect(rows.map((r) => [r.broker_id, r.cash])).toEqual([[1, { code: "EUR", amount: "-100" }], [1, { code: "USD", amount: "108.2" }]]);
  });
  test("CASH_TRANSFER: same currency, two brokers", () => {
    const rows = toCreates(emptyForm({ ...base, type: "CASH_TRANSFER", amount: "50", to_broker_id: "4" }), { linkUuid: "L" });
    expect(rows.map((r) => [r.broker_id, r.cash!.amount])).toEqual([[1, "-50"], [4, "50"]]);
  });
});

describe("checks before sending", () => {
  test("each missing or wrong input is named on its field", () => {
    const e = checkForm(emptyForm({ type: "BUY", date: "2024-01-01", quantity: "-1", amount: "abc", currency: "EURO" }));
    expect(Object.keys(e).sort()).toEqual(["amount", "asset_id", "broker_id", "currency", "quantity"]);
    expect(checkForm(emptyForm({ ...base, type: "ADJUSTMENT", asset_id: "1", quantity: "0" })).quantity).toBeDefined();
    expect(checkForm(emptyForm({ ...base, type: "TRANSFER", asset_id: "1", quantity: "1", to_broker_id: "1" })).to_broker_id).toBeDefined();
    expect(checkForm(emptyForm({ ...base, type: "FX_CONVERSION", amount: "1", to_amount: "1", to_currency: "EUR" })).to_currency).toBeDefined();
    expect(checkForm(emptyForm({ ...base, type: "BUY", asset_id: "1", quantity: "1", amount: "1" }))).toEqual({});
  });
});

describe("API issues land on the right fields", () => {
  test("single issues, packed rule errors and broker-level balance issues", () => {
    const r = issuesToErrors([
      { index: 0, error: "bad quantity", code: "parseError", field: "quantity", params: null },
      { index: 1, error: "several", code: "multipleBusinessRuleErrors", field: null, params: { errors: [{ code: "x", msg: "received cash bad", field: "cash.amount" }] } },
      { index: -1, error: "Cash would go negative", code: "balanceCashNegative", field: null, params: { broker_id: 1 } },
      { index: 0, error: "something else", code: "unknownCode", field: null, params: null },
    ], "FX_CONVERSION");
    expect(r.fields.quantity).toEqual(["bad quantity"]);
    expect(r.fields.to_amount).toEqual(["received cash bad"]);
    expect(r.fields.amount).toEqual(["Cash would go negative"]);
    expect(r.general).toEqual(["something else"]);
  });
  test("a stored row opens in the form with positive amounts", () => {
    const f = fromTransaction({ type: "BUY", broker_id: 2, date: "2024-01-03", asset_id: 5, quantity: "3", cash: { code: "EUR", amount: "-30" }, description: null, tags: ["a", "b"], cost_basis_override: null });
    expect(f).toMatchObject({ broker_id: "2", asset_id: "5", quantity: "3", amount: "30", currency: "EUR", tags: "a, b" });
  });
});

describe("type names for display", () => {
  test("a code shows as a name in the interface language; an unknown code shows as is", async () => {
    try {
      setLanguage("en");
      expect(TX_TYPES.map(txTypeLabel)).toEqual([
        "Buy", "Sell", "Dividend", "Interest", "Deposit", "Withdrawal", "Fee", "Tax", "Adjustment", "Transfer", "FX conversion", "Cash transfer",
      ]);
      expect(txTypeLabel("SPIN_OFF")).toBe("SPIN_OFF");
      await loadLanguage("fr");
      expect(["BUY", "WITHDRAWAL", "TRANSFER"].map(txTypeLabel)).toEqual(["Achat", "Retrait", "Transfert"]);
      await loadLanguage("pt-BR");
      expect(txTypeLabel("DIVIDEND")).toBe("Dividendo");
    } finally {
      setLanguage("en");
    }
  });
});

describe("numbers typed in the user's locale", () => {
  test("an Italian buy of 1,5 units for 1.234,56 is sent as 1.5 and -1234.56", async () => {
    const form = emptyForm({ ...base, type: "BUY", asset_id: "7", quantity: "1,5", amount: "1.234,56" });
    expect(checkForm(form, "it")).toEqual({});
    expect(toCreates(form, { locale: "it" })[0]).toMatchObject({ quantity: "1.5", cash: { code: "EUR", amount: "-1234.56" } });
    expect(checkForm(emptyForm({ ...base, type: "DEPOSIT", amount: "1,50" }), "it")).toEqual({});
    // In English the comma groups; a lone "1,234" is refused as two-way, with the field named.
    expect(toCreates(emptyForm({ ...base, type: "DEPOSIT", amount: "1,234.5" }), { locale: "en" })[0]!.cash!.amount).toBe("1234.5");
    await loadLanguage("it");
    const e = checkForm(emptyForm({ ...base, type: "BUY", asset_id: "7", quantity: "1.234", amount: "10" }), "it");
    setLanguage("en");
    expect(Object.keys(e)).toEqual(["quantity"]);
    expect(e.quantity).toEqual(["«1.234» si può leggere in due modi: scrivi 1234 per il numero intero, oppure 1,234 con la virgola decimale."]);
  });

  test("a stored transaction fills the form with the locale's decimal mark", () => {
    const f = fromTransaction({ type: "BUY", broker_id: 1, date: "2024-05-02", asset_id: 7, quantity: "1.5", cash: { code: "EUR", amount: "-1234.56" }, description: null, tags: null, cost_basis_override: null }, "de");
    expect([f.quantity, f.amount]).toEqual(["1,5", "1234,56"]);
    expect(toCreates(f, { locale: "de" })[0]).toMatchObject({ quantity: "1.5", cash: { amount: "-1234.56" } });
  });
});

describe("a buy paid from cash in another currency", () => {
  const form = emptyForm({ type: "BUY", broker_id: "3", date: "2025-03-10", asset_id: "7", quantity: "5", amount: "1085", currency: "USD", pay_currency: "EUR", fx_rate: "1.1" });

  test("is written as the conversion's two legs (one link) and then the buy, the cost rounded up to the cent", () => {
    const rows = toCreates(form, { linkUuid: "L" });
    expect(rows.map((r) => [r.type, r.cash, r.link_uuid])).toEqual([
      ["FX_CONVERSION", { code: "EUR", amount: "-986.37" }, "L"],
      ["FX_CONVERSION", { code: "USD", amount: "1085" }, "L"],
      ["BUY", { code: "USD", amount: "-1085" }, undefined],
    ]);
    expect(rows[2]!.quantity).toBe("5");
    expect(conversionCost("1000", "0.3", "JPY")).toBe("3334");
  });

  test("needs a rate above 0, read in the user's locale", () => {
    expect(checkForm({ ...form, fx_rate: "" }).fx_rate).toHaveLength(1);
    expect(checkForm({ ...form, fx_rate: "1,1" }, "it").fx_rate).toBeUndefined();
    expect(toCreates({ ...form, amount: "1085", fx_rate: "1,1" }, { locale: "it" })[0]!.cash).toEqual({ code: "EUR", amount: "-986.37" });
  });

  test("puts the conversion legs' issues at the rate and the buy's (third row) at its own fields", () => {
    const out = issuesToErrors([
      { index: 0, error: "leg", code: null, field: "cash.amount", params: null },
      { index: 2, error: "qty", code: null, field: "quantity", params: null },
    ], "BUY", { conversion: true });
    expect(out.fields).toEqual({ fx_rate: ["leg"], quantity: ["qty"] });
  });
});
