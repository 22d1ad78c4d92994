import {
  Decimal, type ImportedTransaction, type ImportFileMeta, type ImportParseParams, type ImportResult,
  type ImportTransactionType, type ImportWarning, PluginError,
} from "../../sdk/index.ts";
import {
  assetTypeOfName, columns, type Columns, detectDateOrder, detectDecimalMark, findHeaderRow, normalizeHeader, parseDate, parseDecimal, readCsv,
} from "../../sdk/import/index.ts";
import { lineWas, notImported, unreadableLine } from "../../sdk/import/skips.ts";

// The generic CSV: one transaction per row, a header row naming the columns in English, Italian,
// German, French, Spanish or Dutch (accents and case ignored; a title block above it is skipped).
// Needed: a date and a type column. Optional: ISIN, symbol, name, quantity, price, amount,
// currency, fee, description. Separator (`,` `;` tab `|`), encoding, decimal mark and day/month
// order are sniffed per file. Amounts may be signed or not: the type decides the sign, as the
// ledger wants it (BUY cash < 0 and quantity > 0, SELL the reverse, DEPOSIT/DIVIDEND/INTEREST
// cash > 0, WITHDRAWAL/FEE/TAX cash < 0). A fee column becomes its own FEE row after the trade.
// A trade whose amount is empty (or 0) is quantity × price, said in an info warning; one without
// amount and price is listed as skipped with the reason, never dropped. Options: `column_mapping` {field: header},
// `type_mapping` {word: TYPE}, `date_order` DMY|MDY, `decimal_mark` "."|",", `currency` (default
// for rows without one).

/** Fields of a row, and the header names each is known by. */
export const HEADER_ALIASES = {
  date: ["date", "data", "datum", "fecha", "trade date", "transaction date", "data operazione", "buchungstag", "handelstag", "date operation", "fecha operacion", "transactiedatum"],
  type: ["type", "tipo", "typ", "transaction type", "operazione", "tipo operazione", "transaktionsart", "art", "operation", "type d operation", "tipo de operacion", "soort", "transactietype"],
  isin: ["isin", "codice isin", "isin code", "code isin"],
  symbol: ["symbol", "ticker", "simbolo", "symbole", "tickersymbol"],
  name: ["name", "nome", "product", "prodotto", "titolo", "bezeichnung", "wertpapier", "nom", "produit", "nombre", "producto", "naam", "security", "instrument"],
  quantity: ["quantity", "qty", "shares", "units", "quantita", "stuck", "stueck", "anzahl", "menge", "quantite", "cantidad", "aantal", "number of shares", "no of shares", "anteile"],
  price: [
    "price", "prezzo", "kurs", "preis", "prix", "precio", "koers", "prijs", "unit price", "price per share", "share price", "prezzo unitario",
    "prezzo medio", "stuckpreis", "stueckpreis", "prix unitaire", "precio unitario", "koers per stuk", "quote",
  ],
  amount: ["amount", "total", "totale", "importo", "controvalore", "betrag", "montant", "importe", "bedrag", "net amount", "value"],
  currency: ["currency", "valuta", "wahrung", "waehrung", "devise", "divisa", "moneda", "ccy"],
  fee: ["fee", "fees", "commission", "commissions", "commissioni", "commissione", "gebuhr", "gebuhren", "frais", "comision", "comisiones", "kosten", "provisie"],
  description: ["description", "descrizione", "beschreibung", "note", "notes", "libelle", "descripcion", "omschrijving", "memo"],
} as const;

export type Field = keyof typeof HEADER_ALIASES;

/** Type words (normalised: lower case, no accents) in the six languages. */
export const TYPE_WORDS: Record<string, ImportTransactionType> = Object.fromEntries(Object.entries({
  BUY: ["buy", "bought", "market buy", "limit buy", "acquisto", "acquisti", "compra", "kauf", "achat", "aankoop", "koop"],
  SELL: ["sell", "sold", "market sell", "limit sell", "vendita", "vendite", "venta", "verkauf", "vente", "verkoop"],
  DIVIDEND: ["dividend", "dividends", "dividendo", "dividendi", "dividende", "dividenden", "ausschuttung"],
  INTEREST: ["interest", "interessi", "interesse", "zinsen", "zins", "interets", "interet", "intereses", "rente"],
  DEPOSIT: ["deposit", "versamento", "bonifico in entrata", "einzahlung", "depot", "deposito", "ingreso", "storting", "cash in"],
  WITHDRAWAL: ["withdrawal", "prelievo", "auszahlung", "retrait", "retirada", "retiro", "opname", "cash out"],
  FEE: ["fee", "fees", "commission", "commissione", "commissioni", "spese", "gebuhr", "gebuhren", "frais", "comision", "kosten"],
  TAX: ["tax", "taxes", "withholding tax", "tasse", "tassa", "imposta", "imposte", "steuer", "steuern", "impot", "impots", "impuesto", "impuestos", "belasting"],
}).flatMap(([type, words]) => words.map((w) => [w, type as ImportTransactionType])));

const POSITIVE_CASH = new Set<ImportTransactionType>(["SELL", "DIVIDEND", "INTEREST", "DEPOSIT"]);
const NEGATIVE_CASH = new Set<ImportTransactionType>(["BUY", "WITHDRAWAL", "FEE", "TAX"]);
/** A negative amount under these types means the opposite movement. */
const FLIP: Partial<Record<ImportTransactionType, ImportTransactionType>> = { DEPOSIT: "WITHDRAWAL", INTEREST: "FEE" };

export interface GenericOptions {
  column_mapping?: Partial<Record<Field, string>>;
  currency?: string;
  date_order?: "DMY" | "MDY";
  decimal_mark?: "." | ",";
  type_mapping?: Record<string, string>;
}

function readOptions(raw: Readonly<Record<string, unknown>> | undefined): GenericOptions {
  const o = (raw ?? {}) as GenericOptions;
  return {
    column_mapping: typeof o.column_mapping === "object" && o.column_mapping ? o.column_mapping : {},
    type_mapping: typeof o.type_mapping === "object" && o.type_mapping ? o.type_mapping : {},
    ...(o.date_order === "DMY" || o.date_order === "MDY" ? { date_order: o.date_order } : {}),
    ...(o.decimal_mark === "." || o.decimal_mark === "," ? { decimal_mark: o.decimal_mark } : {}),
    ...(typeof o.currency === "string" && /^[A-Za-z]{3}$/.test(o.currency) ? { currency: o.currency.toUpperCase() } : {}),
  };
}

function namesFor(field: Field, options: GenericOptions): string[] {
  const mapped = options.column_mapping?.[field];
  return mapped ? [mapped] : [...HEADER_ALIASES[field]];
}

function headerIndex(rows: readonly (readonly string[])[], options: GenericOptions): number {
  for (let i = 0; i < Math.min(rows.length, 30); i++) {
    const cols = columns(rows[i]!);
    if (cols.has(...namesFor("date", options)) && cols.has(...namesFor("type", options))) return i;
  }
  return -1;
}

/** How sure the generic reader is: 0.2 with a date and a type column in the head, 0.05 for other delimited text. */
export function acceptsGeneric(file: ImportFileMeta): number {
  if (file.format !== undefined && file.format !== "text") return 0;
  if (!["csv", "txt", "tsv", ""].includes(file.extension) || file.head.trim() === "") return 0;
  const rows = readCsv(file.head).rows;
  if (headerIndex(rows, {}) >= 0) return 0.2;
  return rows.length > 1 && (rows[0]?.length ?? 0) > 1 ? 0.05 : 0;
}

const abs = (d: Decimal) => d.abs();

/** Reads a generic CSV; see the format notes at the top of this file. */
export function parseGenericCsv(params: ImportParseParams): ImportResult {
  if (params.bytes.length === 0) throw new PluginError("invalid-input", "The file is empty");
  const options = readOptions(params.options);
  const table = readCsv(params.bytes);
  const { rows } = table;
  const at = headerIndex(rows, options);
  if (at < 0) {
    const seen = (rows[0] ?? []).slice(0, 12).join(", ");
    throw new PluginError("invalid-input", `No header row with a date and a type column was found (first row: ${seen || "empty"}); name them with column_mapping`);
  }
  const header = rows[at]!;
  const cols: Columns = columns(header);
  const at_ = Object.fromEntries((Object.keys(HEADER_ALIASES) as Field[]).map((f) => [f, cols.index(...namesFor(f, options))])) as Record<Field, number>;
  const get = (row: readonly string[], field: Field) => (at_[field] < 0 ? "" : (row[at_[field]] ?? "").trim());
  const data = rows.slice(at + 1);
  const mismatched = data.filter((r) => r.length !== header.length).length;
  if (data.length > 0 && mismatched > data.length / 2) {
    throw new PluginError("invalid-input", `${mismatched} of ${data.length} rows do not have the header's ${header.length} columns`);
  }
  const mark = options.decimal_mark ?? detectDecimalMark(data.flatMap((r) => [get(r, "amount"), get(r, "quantity"), get(r, "price"), get(r, "fee")]));
  const order = options.date_order ?? detectDateOrder(data.map((r) => get(r, "date")));
  const typeWords: Record<string, string> = { ...TYPE_WORDS };
  for (const [word, type] of Object.entries(options.type_mapping ?? {})) typeWords[normalizeHeader(word)] = type.toUpperCase();

  const transactions: ImportedTransaction[] = [];
  const warnings: ImportWarning[] = [];
  const skippedRows: NonNullable<ImportResult["skippedRows"]>[number][] = [];
  const skip = (row: number, code: string, message: string) => {
    skippedRows.push({ line: row, reason: message });
    warnings.push({ code, message, row, severity: "warning" });
  };
  data.forEach((r, i) => {
    const row = table.lines[at + 1 + i] ?? at + i + 2;
    // What the line was, for a skipped line's reason: its type, asset, date and amount.
    const what = lineWas(get(r, "type"), get(r, "symbol") || get(r, "name") || get(r, "isin"), get(r, "date"), get(r, "amount") && `${get(r, "amount")} ${get(r, "currency")}`.trim());
    const left = (code: string, why: string, todo: string) => skip(row, code, notImported(row, what, why, todo));
    if (r.length !== header.length) {
      return left("columnCountMismatch", `has ${r.length} cells where the header has ${header.length}, so its columns cannot be matched`, "correct the line (a separator inside an unquoted value?) and upload again, or enter it by hand");
    }
    let type = typeWords[normalizeHeader(get(r, "type"))] as ImportTransactionType | undefined;
    if (!type || !["BUY", "SELL", "DIVIDEND", "INTEREST", "DEPOSIT", "WITHDRAWAL", "FEE", "TAX"].includes(type)) {
      const word = get(r, "type");
      if (!word) return left("unknownType", "has no type, so what it moved cannot be told", "fill in its type and upload again, or enter it by hand");
      return left("unknownType", "is a type word the importer does not know, so what it moved cannot be told", `give the word its type with the option type_mapping (e.g. {"${word}": "DEPOSIT"}) and upload again, or enter it by hand`);
    }
    const date = parseDate(get(r, "date"), order);
    if (!date) return skip(row, "badDate", unreadableLine(row, "Date", get(r, "date"), "a date", what));
    const currency = (get(r, "currency") || options.currency || "").toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) return left("missingCurrency", "has no currency", "add a currency column or the currency option and upload again, or enter it by hand");
    const quantity = parseDecimal(get(r, "quantity"), mark);
    const price = parseDecimal(get(r, "price"), mark);
    let amount = parseDecimal(get(r, "amount"), mark);
    const isTradeType = type === "BUY" || type === "SELL";
    if (isTradeType && (amount === null || amount.isZero()) && quantity !== null && !quantity.isZero() && price !== null && !price.isZero()) {
      amount = abs(quantity.times(price));
      warnings.push({
        code: "amountComputed", row, severity: "info",
        message: `No amount: ${type} of ${abs(quantity).toFixed()} at ${abs(price).toFixed()} booked as ${amount.toFixed()}${get(r, "fee") ? ", the fee as its own row" : ""}`,
      });
    }
    if (amount === null || amount.isZero()) {
      const [why, todo] = !isTradeType
        ? [`is a ${type} without an amount`, `fill in its amount and upload again, or enter it by hand as a ${type}`]
        : quantity === null || quantity.isZero()
          ? [`is a ${type} without an amount and without a quantity`, `fill in its amount and quantity and upload again, or enter it by hand as a ${type}`]
          : at_.price < 0
            ? [`is a ${type} of ${abs(quantity).toFixed()} without an amount, and the file has no price column to compute it`, "name the price column with column_mapping.price, or fill in the amount, and upload again"]
            : [`is a ${type} of ${abs(quantity).toFixed()} without an amount, and no price in its row to compute it`, `fill in its amount or price and upload again, or enter it by hand as a ${type}`];
      return left("missingAmount", why, todo);
    }
    if (amount.lt(0) && POSITIVE_CASH.has(type)) {
      const flipped = FLIP[type];
      if (flipped) type = flipped;
      else warnings.push({ code: "signIgnored", message: `A negative amount under ${type}: read as ${type}`, row, severity: "warning" });
    }
    const isTrade = type === "BUY" || type === "SELL";
    if (isTrade && (quantity === null || quantity.isZero())) {
      return left("missingQuantity", `is a ${type} without a quantity`, `fill in its quantity and upload again, or enter it by hand as a ${type}`);
    }
    const cash = NEGATIVE_CASH.has(type) ? abs(amount).neg() : abs(amount);
    const assetType = assetTypeOfName(get(r, "name"));
    const hints = {
      ...(get(r, "isin") ? { isin: get(r, "isin").toUpperCase() } : {}),
      ...(get(r, "symbol") ? { symbol: get(r, "symbol") } : {}),
      ...(get(r, "name") ? { assetName: get(r, "name") } : {}),
      ...(assetType ? { assetType } : {}),
    };
    const description = get(r, "description");
    transactions.push({
      row, type, date, ...hints,
      quantity: (isTrade ? (type === "BUY" ? abs(quantity!) : abs(quantity!).neg()) : new Decimal(0)).toFixed() as never,
      cash: { amount: cash.toFixed(), currency } as never,
      ...(description ? { description } : {}),
    });
    const fee = parseDecimal(get(r, "fee"), mark);
    if (fee && !fee.isZero()) {
      transactions.push({ row, type: "FEE", date, ...hints, quantity: "0" as never, cash: { amount: abs(fee).neg().toFixed(), currency } as never });
    }
  });
  return { detectedFormat: "generic-csv", skippedRows, transactions, warnings };
}
