/**
 * The transaction form (docs/transactions.md): from the API's rules of each type
 * (`GET /transactions/types`, read by {@link txRules}) it decides which fields to ask for, the
 * signs to apply (people type amounts as positive numbers; the ledger stores BUY cash negative,
 * SELL quantity negative, ...), how a paired type becomes two legs sharing a link_uuid, and where
 * a batch issue of the API belongs on the form. Only the types' display names are kept here.
 */
import Decimal from "decimal.js";
import { isDecimal, negateDecimal, readDecimal, signOf, toInputText } from "./decimal.ts";
import { currencyDigits } from "./format.ts";
import { msg, t } from "./i18n.ts";
import type { Result } from "../api/client.ts";
import type { TxTypeRule } from "../api/types.ts";

/** A transaction type code, as `GET /transactions/types` lists them. */
export type TxType = TxTypeRule["code"];

type Mode = TxTypeRule["asset_mode"];

/** What the form does with a type: read from the API's rules of that type by {@link txRules}. */
export interface FormRule {
  asset: Mode;
  cash: Mode;
  /** Sign the ledger stores for the entered (positive) quantity: +1, -1, 0 (no quantity) or "signed" (as typed). */
  quantity: 1 | -1 | 0 | "signed";
  /** Sign the ledger stores for the entered (positive) cash amount. */
  cashSign: 1 | -1 | 0;
  /** How a paired type's two legs are entered; null for a single row. */
  pair: TxTypeRule["pair_form_layout"];
  /** Whether the form asks for a cost per unit (a row, or the receiving leg, that may add units at a given cost). */
  costBasis: boolean;
}

/** The form's rules of every type, in the API's order. */
export type TxRules = ReadonlyMap<TxType, FormRule>;

const sign = (s: TxTypeRule["quantity_sign"]): 1 | -1 | null => (s === "positive" ? 1 : s === "negative" ? -1 : null);

/**
 * The form's rules from the API's (`GET /transactions/types`). People type amounts as positive
 * numbers and the form applies the sign the ledger stores (BUY cash negative, SELL quantity
 * negative); a type whose sign is free (ADJUSTMENT) takes the quantity as typed. A paired type is
 * entered from the sending side: its first leg gets the negative sign, the second the positive.
 */
export function txRules(types: readonly TxTypeRule[]): TxRules {
  return new Map(types.map((t) => [t.code, {
    asset: t.asset_mode,
    cash: t.cash_mode,
    quantity: t.quantity_mode === "forbidden" ? 0 : t.requires_link ? 1 : sign(t.quantity_sign) ?? "signed",
    cashSign: t.cash_mode === "forbidden" ? 0 : t.requires_link ? -1 : sign(t.cash_sign) ?? 1,
    pair: t.pair_form_layout,
    costBasis: t.cost_basis_mode !== "forbidden" || (t.cost_basis_pair ?? []).some((m) => m !== "forbidden"),
  } satisfies FormRule]));
}

/** The rule of `type`; a type the API did not list is refused rather than guessed. */
function ruleOf(rules: TxRules, type: TxType): FormRule {
  const r = rules.get(type);
  if (!r) throw new Error(`Unknown transaction type ${type}`);
  return r;
}

/** Names of the types in the form's type menu (marked with msg(), shown through t()); `short` for table cells. */
const LABELS: Record<TxType, { label: string; short?: string }> = {
  BUY: { label: msg("Buy") },
  SELL: { label: msg("Sell") },
  DIVIDEND: { label: msg("Dividend") },
  INTEREST: { label: msg("Interest") },
  DEPOSIT: { label: msg("Deposit") },
  WITHDRAWAL: { label: msg("Withdrawal") },
  FEE: { label: msg("Fee") },
  TAX: { label: msg("Tax") },
  ADJUSTMENT: { label: msg("Quantity adjustment"), short: msg("Adjustment") },
  TRANSFER: { label: msg("Transfer of units between brokers"), short: msg("Transfer") },
  FX_CONVERSION: { label: msg("Currency conversion"), short: msg("FX conversion") },
  CASH_TRANSFER: { label: msg("Cash transfer between brokers"), short: msg("Cash transfer") },
};

/** A type's name in the form's type menu, in the interface language. */
export function txTypeMenuLabel(type: TxType): string {
  return t(LABELS[type].label);
}

/**
 * A transaction type's name for display in a table, in the interface language ("BUY" → "Buy",
 * "Kauf", ...). The code stays what the API receives; a code this app does not know shows as is.
 */
export function txTypeLabel(type: string): string {
  const label = (LABELS as Record<string, { label: string; short?: string } | undefined>)[type];
  return label ? t(label.short ?? label.label) : type;
}

export interface TxForm {
  type: TxType;
  broker_id: string;
  date: string;
  asset_id: string;
  quantity: string;
  amount: string;
  currency: string;
  /** Per-unit cost of inbound units (TRANSFER receiver, positive ADJUSTMENT). */
  cost_basis: string;
  description: string;
  tags: string;
  /** Second leg: the receiving broker (TRANSFER, CASH_TRANSFER). */
  to_broker_id: string;
  /** Second leg of FX_CONVERSION: the amount and currency received. */
  to_amount: string;
  to_currency: string;
  /**
   * BUY paid from the broker's cash in another currency: that currency ("" = the buy's own), and
   * the rate of the conversion written with it (1 pay_currency = fx_rate currency).
   */
  pay_currency: string;
  fx_rate: string;
}

export function emptyForm(defaults: Partial<TxForm> = {}): TxForm {
  return {
    type: "BUY", broker_id: "", date: new Date().toISOString().slice(0, 10), asset_id: "", quantity: "", amount: "",
    currency: "", cost_basis: "", description: "", tags: "", to_broker_id: "", to_amount: "", to_currency: "",
    pay_currency: "", fx_rate: "", ...defaults,
  };
}

export type FieldName = keyof TxForm;

/** The fields the form shows for a type, in order. */
export function visibleFields(rules: TxRules, type: TxType): FieldName[] {
  const r = ruleOf(rules, type);
  const f: FieldName[] = ["type", "broker_id", "date"];
  if (r.pair === "transfer_asset" || r.pair === "transfer_cash") f.push("to_broker_id");
  if (r.asset !== "forbidden") f.push("asset_id");
  if (r.quantity !== 0) f.push("quantity");
  if (r.cash !== "forbidden") f.push("amount", "currency");
  if (r.pair === "fx") f.push("to_amount", "to_currency");
  if (r.costBasis) f.push("cost_basis");
  f.push("description", "tags");
  return f;
}

export type FormErrors = Partial<Record<FieldName, string[]>>;

const positive = (v: string) => isDecimal(v) && signOf(v) > 0;

/** The form's number fields, typed in the user's locale ("1.234,56" in Italian). */
const NUMBER_FIELDS = ["quantity", "amount", "to_amount", "cost_basis", "fx_rate"] as const;

/** Whether a form is a BUY paid from cash in another currency (a conversion is written with it). */
export function paysByConversion(f: TxForm): boolean {
  return f.type === "BUY" && !!f.pay_currency && f.pay_currency.toUpperCase() !== f.currency.trim().toUpperCase();
}

/**
 * What a conversion at `rate` (1 pay currency = rate buy currency) takes from the pay currency to
 * give `amount` of the buy's currency, rounded up to the pay currency's minor unit so the buy is
 * covered. Canonical decimals in, a canonical decimal out; null when either is no positive number.
 */
export function conversionCost(amount: string, rate: string, payCurrency: string): string | null {
  if (!isDecimal(amount) || !isDecimal(rate) || signOf(amount) <= 0 || signOf(rate) <= 0) return null;
  return new Decimal(amount).div(rate).toDecimalPlaces(currencyDigits(payCurrency), Decimal.ROUND_UP).toFixed();
}

/**
 * The form with its number fields as the API writes them ("1,5" → "1.5" in Italian), and the
 * fields whose text could be read two ways ("1.234"), with the message saying how to write them.
 * A field that is no number at all stays as typed (the checks below refuse it).
 */
export function readNumbers(f: TxForm, locale: string): { form: TxForm; ambiguous: FormErrors } {
  const form = { ...f };
  const ambiguous: FormErrors = {};
  for (const k of NUMBER_FIELDS) {
    const r = readDecimal(f[k], locale);
    if (r.ok) form[k] = r.value;
    else if (r.reason === "ambiguous") ambiguous[k] = [r.message];
  }
  return { form, ambiguous };
}

/** Checks a form before anything is sent: every message names what to type. Numbers are read in `locale`. */
export function checkForm(rules: TxRules, typed: TxForm, locale = "en"): FormErrors {
  const { form: f, ambiguous } = readNumbers(typed, locale);
  const e: FormErrors = { ...ambiguous };
  const add = (k: FieldName, m: string) => { if (!ambiguous[k]) (e[k] ??= []).push(m); };
  const r = ruleOf(rules, f.type);
  if (!f.broker_id) add("broker_id", t("Choose a broker."));
  if (!/^\d{4}-\d{2}-\d{2}$/.test(f.date)) add("date", t("Enter a date."));
  if (r.asset === "required" && !f.asset_id) add("asset_id", t("Choose an asset."));
  if (r.quantity === "signed") {
    if (!isDecimal(f.quantity) || signOf(f.quantity) === 0) add("quantity", t("Enter a quantity other than 0 (negative removes units)."));
  } else if (r.quantity !== 0 && !positive(f.quantity)) add("quantity", t("Enter a quantity greater than 0."));
  if (r.cash === "required") {
    if (!positive(f.amount)) add("amount", t("Enter an amount greater than 0."));
    if (!/^[A-Za-z]{3}$/.test(f.currency)) add("currency", t("Enter a three-letter currency code."));
  }
  if (r.pair === "transfer_asset" || r.pair === "transfer_cash") {
    if (!f.to_broker_id) add("to_broker_id", t("Choose the receiving broker."));
    else if (f.to_broker_id === f.broker_id) add("to_broker_id", t("The receiving broker must differ from the sending one."));
  }
  if (r.pair === "fx") {
    if (!positive(f.to_amount)) add("to_amount", t("Enter the amount received."));
    if (!/^[A-Za-z]{3}$/.test(f.to_currency)) add("to_currency", t("Enter a three-letter currency code."));
    else if (f.to_currency.toUpperCase() === f.currency.toUpperCase()) add("to_currency", t("A conversion needs two different currencies."));
  }
  if (f.cost_basis && !(isDecimal(f.cost_basis) && signOf(f.cost_basis) >= 0)) add("cost_basis", t("Enter the cost per unit (0 or more)."));
  if (paysByConversion(f) && !positive(f.fx_rate)) add("fx_rate", t("Enter the exchange rate of the conversion (greater than 0)."));
  return e;
}

export interface TxCreate {
  broker_id: number;
  type: TxType;
  date: string;
  asset_id?: number;
  quantity: string;
  cash?: { code: string; amount: string };
  cost_basis_override?: { code: string; amount: string };
  description?: string;
  tags?: string[];
  link_uuid?: string;
}

const signed = (value: string, sign: 1 | -1) => (sign < 0 ? negateDecimal(value.trim()) : value.trim());

/**
 * The create rows of a valid form: one row, or two legs sharing a link_uuid for paired types.
 * `assetCurrency` is the asset's currency (cost basis is per unit in it); numbers are read in `locale`.
 */
export function toCreates(rules: TxRules, typed: TxForm, opts: { linkUuid?: string; assetCurrency?: string; locale?: string } = {}): TxCreate[] {
  const f = readNumbers(typed, opts.locale ?? "en").form;
  const r = ruleOf(rules, f.type);
  const common = {
    type: f.type, date: f.date,
    description: f.description.trim() || undefined,
    tags: f.tags.split(",").map((t) => t.trim()).filter(Boolean),
  };
  if (!common.tags.length) delete (common as { tags?: string[] }).tags;
  const broker = Number(f.broker_id);
  const asset = f.asset_id ? Number(f.asset_id) : undefined;
  const currency = f.currency.trim().toUpperCase();
  const cost = f.cost_basis.trim() && opts.assetCurrency ? { code: opts.assetCurrency, amount: f.cost_basis.trim() } : undefined;
  const link = opts.linkUuid ?? crypto.randomUUID();
  switch (r.pair) {
    case "transfer_asset":
      return [
        { ...common, broker_id: broker, asset_id: asset, quantity: signed(f.quantity, -1), link_uuid: link },
        { ...common, broker_id: Number(f.to_broker_id), asset_id: asset, quantity: f.quantity.trim(), cost_basis_override: cost, link_uuid: link },
      ];
    case "transfer_cash":
      return [
        { ...common, broker_id: broker, quantity: "0", cash: { code: currency, amount: signed(f.amount, -1) }, link_uuid: link },
        { ...common, broker_id: Number(f.to_broker_id), quantity: "0", cash: { code: currency, amount: f.amount.trim() }, link_uuid: link },
      ];
    case "fx":
      return [
        { ...common, broker_id: broker, quantity: "0", cash: { code: currency, amount: signed(f.amount, -1) }, link_uuid: link },
        { ...common, broker_id: broker, quantity: "0", cash: { code: f.to_currency.trim().toUpperCase(), amount: f.to_amount.trim() }, link_uuid: link },
      ];
  }
  const row: TxCreate = { ...common, broker_id: broker, quantity: "0" };
  if (r.asset !== "forbidden" && asset !== undefined) row.asset_id = asset;
  if (r.quantity === "signed") row.quantity = f.quantity.trim();
  else if (r.quantity !== 0) row.quantity = signed(f.quantity, r.quantity);
  if (r.cash === "required") row.cash = { code: currency, amount: signed(f.amount, r.cashSign as 1 | -1) };
  // A single row's cost basis applies to added units only (required_qty_pos).
  if (r.costBasis && cost && signOf(f.quantity) > 0) row.cost_basis_override = cost;
  if (paysByConversion(f)) {
    // The conversion's two legs first, then the buy: all in one batch, so the buy's currency is
    // there on the day and nothing is written unless everything is.
    const pay = f.pay_currency.trim().toUpperCase();
    const cost = conversionCost(f.amount.trim(), f.fx_rate.trim(), pay) ?? "0";
    const fx = { ...common, type: "FX_CONVERSION" as const, broker_id: broker, quantity: "0", link_uuid: link };
    return [
      { ...fx, cash: { code: pay, amount: negateDecimal(cost) } },
      { ...fx, cash: { code: currency, amount: f.amount.trim() } },
      row,
    ];
  }
  return [row];
}

/** The form of a stored single-row transaction (amounts shown positive, as typed, with the decimal mark of `locale`). */
export function fromTransaction(rules: TxRules, tx: {
  type: string; broker_id: number; date: string; asset_id: number | null; quantity: string;
  cash: { code: string; amount: string } | null; description: string | null; tags: string[] | null;
  cost_basis_override: { amount: string } | null;
}, locale = "en"): TxForm {
  const r = rules.get(tx.type as TxType);
  const abs = (v: string) => toInputText(v.replace(/^-/, ""), locale);
  return emptyForm({
    type: tx.type as TxType, broker_id: String(tx.broker_id), date: tx.date.slice(0, 10),
    asset_id: tx.asset_id ? String(tx.asset_id) : "",
    quantity: r?.quantity === "signed" ? toInputText(tx.quantity, locale) : abs(tx.quantity),
    amount: tx.cash ? abs(tx.cash.amount) : "", currency: tx.cash?.code ?? "",
    cost_basis: toInputText(tx.cost_basis_override?.amount, locale),
    description: tx.description ?? "", tags: (tx.tags ?? []).join(", "),
  });
}

/** The parts of an issue of POST /transactions/validate or /commit the form reads. */
export type BatchIssue = Pick<Result<"post", "/transactions/validate">["issues"][number], "index" | "error" | "code" | "field" | "params">;

/** Which form field an API field of leg `leg` (0 or 1) belongs to. */
function formField(apiField: string | null | undefined, leg: number, pair: FormRule["pair"]): FieldName | null {
  if (!apiField) return null;
  const f = apiField.replace(/^creates\.\d+\./, "");
  const second = leg === 1;
  if (f.startsWith("cash")) return second && pair === "fx" ? (f.endsWith("code") ? "to_currency" : "to_amount") : (f.endsWith("code") ? "currency" : "amount");
  if (f === "quantity") return "quantity";
  if (f === "asset_id") return "asset_id";
  if (f === "broker_id") return second && pair !== "fx" ? "to_broker_id" : "broker_id";
  if (f === "date") return "date";
  if (f.startsWith("cost_basis")) return "cost_basis";
  if (f === "description") return "description";
  if (f === "tags") return "tags";
  if (f === "type") return "type";
  return null;
}

const CODE_FIELD: Record<string, FieldName> = {
  assetIdInvalid: "asset_id", brokerRequired: "broker_id", brokerNotFound: "broker_id", accessDenied: "broker_id",
  costBasisRequired: "cost_basis", costBasisUnavailable: "cost_basis", costBasisModeIncompatible: "cost_basis",
  pairSameBroker: "to_broker_id", pairSameCurrency: "to_currency", pairCurrencyMismatch: "currency",
  balanceCashNegative: "amount", balanceQuantityNegative: "quantity",
};

/**
 * Spreads batch issues over the form's fields; what fits no field goes under "general".
 * Creates are numbered in the order toCreates returned them, so index 1 is a pair's second leg.
 */
export function issuesToErrors(
  rules: TxRules, issues: BatchIssue[], type: TxType, opts: { conversion?: boolean } = {},
): { fields: FormErrors; general: string[] } {
  const pair = ruleOf(rules, type).pair;
  const fields: FormErrors = {};
  const general: string[] = [];
  const put = (field: FieldName | null, msg: string) => { if (field) (fields[field] ??= []).push(msg); else general.push(msg); };
  for (const issue of issues) {
    if (opts.conversion && (issue.index === 0 || issue.index === 1)) {
      // A leg of the conversion written with a buy: its amounts follow from the rate.
      put("fx_rate", issue.error);
      continue;
    }
    const leg = opts.conversion ? 0 : issue.index === 1 ? 1 : 0;
    const nested = issue.code === "multipleBusinessRuleErrors" && Array.isArray(issue.params?.errors)
      ? issue.params!.errors as { code?: string; msg?: string; field?: string | null }[] : null;
    if (nested) {
      for (const n of nested) put(formField(n.field, leg, pair) ?? (n.code ? CODE_FIELD[n.code] ?? null : null), n.msg ?? n.code ?? t("Invalid"));
    } else {
      put(formField(issue.field, leg, pair) ?? (issue.code ? CODE_FIELD[issue.code] ?? null : null), issue.error);
    }
  }
  return { fields, general };
}
