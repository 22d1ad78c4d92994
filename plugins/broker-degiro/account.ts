import { Decimal, type ImportedTransaction, type ImportResult, PluginError } from "../../sdk/index.ts";
import { columns, type CsvTable, detectDecimalMark, normalizeHeader, parseDate } from "../../sdk/import/index.ts";
import { lineWas, notImported, unknownType, unreadableLine } from "../../sdk/import/skips.ts";
import { amountOf, type Collected, dec, findColumn, hints, type Lang, money, tradeNumbers, ZERO } from "./shared.ts";

// The account statement (Account.csv; "Rekeningoverzicht", "Kontoauszug", "Estratto conto", ...):
// one line per cash movement, newest first, `Date,Time,Value date,Product,ISIN,Description,FX,
// Change,,Balance,,Order Id` in the user's language (NL Datum,Tijd,Valutadatum,...,Omschrijving,FX,
// Mutatie; DE ...,Beschreibung,FX,Änderung,,Saldo,,Order-ID; IT Data,Ora,Data Valore,Prodotto,ISIN,
// Descrizione,Borsa,Variazioni,,Saldo,,ID Ordine; ES Fecha,Hora,Fecha valor,Producto,ISIN,
// Descripción,Tipo,Variación,,Saldo,,ID Orden; PT Data,Hora,Data Valor,Produto,ISIN,Descrição,T.,
// Mudança,,Saldo,,ID da Ordem; FR Date,Heure,Date de,Produit,Code ISIN,Description,FX,Mouvements,,
// Solde,,ID Ordre). Change and Balance span two cells, the currency then the amount. Amounts are
// written with decimal commas (quoted) or points depending on the language and the year, and the
// numbers inside descriptions follow the user's locale, not the amount cells. A value too long for
// its cell (an Order Id, a description) goes on in the same column of the next line, whose date is
// empty. The Description says what happened, in the user's language:
// - trades: "Buy 5 HP Inc@21.31 USD (US40434L1052)", "Koop 1 @ 33,9 USD" (older NL),
//   "Kauf 12 zu je 15,76 EUR (IE00BKM4GZ66)", "Achat", "Acquisto 3 X@1.314,97 USD (...)", "Compra",
//   "Venda"/"Venta", "Sell 4 AVIVA@496 GBX" (a price in pence against an amount in pounds); fills of
//   one order share its Order Id;
// - the order's fee ("DEGIRO Transaction and/or third party fees", "Transactiekosten en/of kosten
//   van derden", "Transaktionsgebühren und/oder Fremdkosten", "costi di transazione e/o di terze
//   parti", "Frais DEGIRO de courtage et/ou de parties tierces", "Comissões de transação DEGIRO e/ou
//   taxas de terceiros") and, for a trade in another currency, the two legs of its AutoFX exchange
//   ("FX Credit"/"FX Debit", "Valuta Creditering"/"Valuta Debitering", "Währungswechsel
//   (Einbuchung)"/"(Ausbuchung)", "Credito FX"/"Prelievo FX", "Ingreso"/"Retirada Cambio de
//   Divisa") with the same Order Id; a dividend's exchange has none but shares date and time;
// - dividends and their withholding ("Dividend"/"Dividend Tax", "Dividendbelasting",
//   "Dividendensteuer", "Ritenuta sul dividendo", "Retención del dividendo", "Impôts sur dividende",
//   "Fund Distribution"/"Fondsausschüttung"); a negative dividend is a reversal, a positive tax a refund;
// - deposits ("iDEAL Deposit", "flatex Deposit", "flatex Storting", "flatex Einzahlung", "Deposito
//   flatex", "Ingreso", "Versement de fonds") and withdrawals ("flatex terugstorting", "Auszahlung",
//   "Prelievo flatex", "Retrait de fonds"); "Processed Flatex Withdrawal" (positive) is the flatex
//   account paying the withdrawal into the statement, not a second movement;
// - interest ("Flatex Interest Income", "Flatex Interest" negative: a charge), connection fees
//   ("DEGIRO Exchange Connection Fee", "Aansluitingskosten", "Einrichtung von Handelsmodalitäten",
//   "Costi di connessione", "Custo de Conectividade"), ADR/GDR fees, promotions;
// - lines that move nothing for the user: the sweep between the statement and the flatexDEGIRO
//   Bank cash account ("Degiro Cash Sweep Transfer", "Overboeking van/naar uw geldrekening bij
//   flatexDEGIRO Bank", "Trasferisci dal tuo conto deposito ..."), deposit reservations and their
//   release ("Reservation iDEAL / Sofort Deposit"), refused withdrawals and their reversal
//   ("Prelievo rifiutato"), money market fund conversions ("Money Market fund conversion: Buy 0.5
//   at 1 GBP", "Geldmarktfonds Umwandlung"), lines with no amount or an amount of zero;
// - corporate actions ("PRODUCTWIJZIGING : Koop 500 @ 0,039 EUR", "AKTIENSPLIT: Kauf 20 zu je ...",
//   "ISIN-ÄNDERUNG: Verkauf ...", "FRAZIONAMENTO AZIONARIO: 50 X @ 120,888 USD (...)"): units in or out.

interface Layout {
  change: number;
  date: number;
  description: number;
  isin: number;
  lang: Lang;
  order: number;
  product: number;
  time: number;
}

const DESCRIPTION_LANG: Record<string, Lang> = {
  description: "en", omschrijving: "nl", beschreibung: "de", descrizione: "it", descripcion: "es", descricao: "pt",
};

/** The account statement's columns in any of DEGIRO's languages, or null when `header` is not one. */
export function accountLayout(header: readonly string[]): Layout | null {
  const cols = columns(header);
  const description = findColumn(cols, /^(description|omschrijving|beschreibung|descrizione|descripcion|descricao)$/);
  const change = findColumn(cols, /^(change|mutatie|anderung|mouvements?|variazioni|variacion|mudanca)$/);
  const date = findColumn(cols, /^(date|datum|data|fecha)$/);
  if (description < 0 || change < 0 || date < 0) return null;
  const names = header.map(normalizeHeader);
  let lang = DESCRIPTION_LANG[names[description]!] ?? "en";
  if (lang === "en" && (names.includes("heure") || names.includes("produit"))) lang = "fr";
  return {
    change, date, description, lang,
    time: findColumn(cols, /^(time|tijd|uhrzeit|heure|ora|hora)$/),
    product: findColumn(cols, /^(product|produkt|produit|prodotto|producto|produto)$/),
    isin: findColumn(cols, /^(isin|code isin)$/),
    order: findColumn(cols, /^(order id|id ordine|id orden|id ordre|id da ordem|order)$/),
  };
}

type Kind =
  | { kind: "trade"; side: "BUY" | "SELL"; corporate: boolean; qty: string; price: string; currency: string; isin?: string }
  | { kind: "corporate-unsided"; qty: string; price: string; currency: string; isin?: string }
  | { kind: "fx" }
  | { kind: "money"; type: ImportedTransaction["type"]; withAsset: boolean }
  /** A line left out: why (after what it was) and what to do, or `unknown` for a line of a kind the importer does not know. */
  | { kind: "skip"; why: string; todo: string; severity: "info" | "warning" }
  | { kind: "unknown" };

const BUY_WORDS = "buy|koop|kauf|achat|acquisto|compra|kup|koupit";
const SELL_WORDS = "sell|verkoop|verkauf|vente|vendita|venta|venda|sprzedaz|prodej";
const NUMBER = "[\\d][\\d.,'’\\u00a0]*";
/** "Buy 5 HP Inc@21.31 USD (US...)", "Koop 1 @ 33,9 USD", "Kauf 12 zu je 15,76 EUR (IE...)". */
const TRADE = new RegExp(
  `^(?:(${BUY_WORDS})|(${SELL_WORDS}))\\s+(${NUMBER})\\s+(?:.*?\\s*@\\s*|zu je\\s+|at\\s+)(${NUMBER})\\s+([A-Za-z]{3})\\b(?:.*?\\(([A-Z]{2}[A-Z0-9]{9}\\d)\\))?`, "i",
);
/** A corporate action without a side: "FRAZIONAMENTO AZIONARIO: 50 NVIDIA Corp @ 120,888 USD (US...)". */
const UNSIDED = new RegExp(`^(${NUMBER})\\s+.*?@\\s*(${NUMBER})\\s+([A-Za-z]{3})\\b(?:.*?\\(([A-Z]{2}[A-Z0-9]{9}\\d)\\))?`, "i");
/** "PRODUCTWIJZIGING : ", "AKTIENSPLIT: ", "ISIN-ÄNDERUNG: ": a corporate action's prefix. */
const CORPORATE_PREFIX = /^([^\d:@()]{3,40}?)\s*:\s*(.*)$/;

const FX = /^(fx (credit|debit)|valuta (creditering|debitering)|w[aä]hrungswechsel|credito fx|prelievo fx|(ingreso|retirada) cambio de divisa|op[ée]ration de change|(cr[ée]dito|d[ée]bito|levantamento) de divisa|fx vyu)/i;
const MONEY_FUND = /money ?market fund|geldmarktfonds|fondo comune monetario|fondo monetario|fonds mon[ée]taire|fundo monet[aá]rio|penezni trh/i;
const DIVIDEND_TAX = /dividend ?tax|dividendbelasting|dividendensteuer|ritenuta sul dividendo|retenci[oó]n del dividendo|imp[oô]ts? sur (les )?dividendes?|imposto sobre dividendo|da[nň] z dividend|withholding tax/i;
const DIVIDEND = /^(dividend|dividende|dividendo|dividenda|fund distribution|fondsaussch[uü]ttung|distribution|distribuzione|capital return|kapitalr[uü]ckzahlung)/i;
const RESERVATION = /^reserv(ation|ering|ierung|a|e)\b/i;
const REFUSED = /rifiutat|refused|geweigerd|abgelehnt|rejected|rechazad|recusad|refus[ée]/i;
const SWEEP = /cash sweep|flatexdegiro bank|geldrekening|geldkonto|cash account|conto deposito|compte esp[eè]ces|cuenta de efectivo|conta de dinheiro/i;
const PROCESSED_WITHDRAWAL = /^processed flatex withdrawal/i;
const PROMOTION = /promotie|promotion|compensazione|compensation|compensatie|courtesy|gutschrift|rabatt|bonus/i;
const INTEREST = /interest|\brente\b|zinsen|interess[ei]|int[ée]r[eê]ts?|intereses|juros|[uú]rok/i;
const WITHDRAWAL = /terugstorting|withdrawal|auszahlung|prelievo|retrait|retirada|levantamento|opname|v[yý]b[eě]r/i;
const DEPOSIT = /deposit|storting|einzahlung|deposito|dep[oó]sitos?|versement|ingreso|vklad/i;
const TRADE_FEE = /and\/or third|en\/of kosten|und\/oder fremd|e\/o di terze|et\/ou de parties|e\/ou taxas|y\/o extern|transaction costs|transactiekosten|transaktionsgeb[uü]hr|costi di transazione|frais de courtage|costes de transacci|comiss[oõ]es de transa/i;
const OTHER_FEE = /fee|kosten|costs?\b|costi|geb[uü]hr|frais|comisi[oó]n|comiss|commission|custo|aansluiting|handelsmodalit|connection|verbindung|conectividad|connessione|poplatek/i;
const TAX = /stamp duty|transactiebelasting|taxe sur les transactions|financial transaction tax|imposta|tobin|steuer|impuesto|imposto|belasting|\btaxe?s?\b/i;

/** What a description says, first match wins (order matters: "Dividend Tax" before "Dividend", FX before withdrawals). */
function classify(description: string): Kind {
  const d = description.trim();
  if (d === "") return { kind: "unknown" };
  if (MONEY_FUND.test(d)) {
    const why = "is a conversion of DEGIRO's money market fund, where the money stays cash for you and no trade is yours";
    return { kind: "skip", why, todo: "nothing to enter: it moves no cash of yours", severity: "info" };
  }
  const prefix = CORPORATE_PREFIX.exec(d);
  if (prefix && !FX.test(d)) {
    const rest = prefix[2]!;
    const t = TRADE.exec(rest);
    if (t) return { kind: "trade", side: t[1] ? "BUY" : "SELL", corporate: true, qty: t[3]!, price: t[4]!, currency: t[5]!, ...(t[6] ? { isin: t[6] } : {}) };
    const u = UNSIDED.exec(rest);
    if (u) return { kind: "corporate-unsided", qty: u[1]!, price: u[2]!, currency: u[3]!, ...(u[4] ? { isin: u[4] } : {}) };
  }
  if (FX.test(d)) return { kind: "fx" };
  if (DIVIDEND_TAX.test(d)) return { kind: "money", type: "TAX", withAsset: true };
  if (DIVIDEND.test(d)) return { kind: "money", type: "DIVIDEND", withAsset: true };
  const t = TRADE.exec(d);
  if (t) return { kind: "trade", side: t[1] ? "BUY" : "SELL", corporate: false, qty: t[3]!, price: t[4]!, currency: t[5]!, ...(t[6] ? { isin: t[6] } : {}) };
  if (RESERVATION.test(d)) {
    return { kind: "skip", why: "is a deposit reservation or its release, while the deposit itself is its own line", todo: "nothing to enter: the deposit is imported from its own line", severity: "info" };
  }
  if (REFUSED.test(d)) return { kind: "skip", why: "is a refused withdrawal or its reversal, two lines that cancel out", todo: "nothing to enter: together they move no cash", severity: "info" };
  if (PROCESSED_WITHDRAWAL.test(d)) {
    return { kind: "skip", why: "is the flatex cash account paying out a withdrawal that has its own line", todo: "nothing to enter: the withdrawal is imported from its own line", severity: "info" };
  }
  if (SWEEP.test(d)) {
    const why = "is a transfer between the statement and your flatexDEGIRO Bank cash account, so your cash stays the same";
    return { kind: "skip", why, todo: "nothing to enter: it moves no cash in or out", severity: "info" };
  }
  if (TRADE_FEE.test(d)) return { kind: "money", type: "FEE", withAsset: true };
  if (PROMOTION.test(d)) return { kind: "money", type: "INTEREST", withAsset: false };
  if (INTEREST.test(d)) return { kind: "money", type: "INTEREST", withAsset: false };
  if (WITHDRAWAL.test(d)) return { kind: "money", type: "WITHDRAWAL", withAsset: false };
  if (DEPOSIT.test(d)) return { kind: "money", type: "DEPOSIT", withAsset: false };
  if (OTHER_FEE.test(d)) return { kind: "money", type: "FEE", withAsset: true };
  if (TAX.test(d)) return { kind: "money", type: "TAX", withAsset: true };
  return { kind: "unknown" };
}

interface Line {
  cells: string[];
  line: number;
}

/**
 * The data lines below the header, a continuation line (no date, no time: the rest of a value too
 * long for its cell) appended to the line above it and accounted for as merged into it.
 */
function joinContinuations(table: CsvTable, at: number, layout: Layout, out: Collected): Line[] {
  const lines: Line[] = [];
  for (let i = at + 1; i < table.rows.length; i++) {
    const cells = [...table.rows[i]!];
    const line = table.lines[i] ?? i + 1;
    const dateCell = (cells[layout.date] ?? "").trim();
    const timeCell = layout.time >= 0 ? (cells[layout.time] ?? "").trim() : "";
    const previous = lines.at(-1);
    if (dateCell === "" && timeCell === "" && previous) {
      cells.forEach((cell, c) => {
        const value = cell.trim();
        if (value === "") return;
        const before = (previous.cells[c] ?? "").trim();
        // An Order Id is cut inside its text; words of a description are cut between words.
        previous.cells[c] = c === layout.order || before.endsWith("-") ? `${before}${value}` : before ? `${before} ${value}` : value;
      });
      out.skipped.push({ line, reason: `Line ${line}: the rest of line ${previous.line}'s text, which the export cut onto a line of its own; merged into line ${previous.line}, nothing to enter` });
      continue;
    }
    lines.push({ cells, line });
  }
  return lines;
}

/** Reads the account statement below the header row `at`; see the format notes at the top of this file. */
export function parseAccount(table: CsvTable, at: number, layout: Layout): ImportResult {
  const out: Collected = { skipped: [], transactions: [], warnings: [] };
  const lines = joinContinuations(table, at, layout, out);
  const cell = (l: Line, i: number) => (i < 0 ? "" : (l.cells[i] ?? "").trim());
  const mark = detectDecimalMark(lines.map((l) => cell(l, layout.change + 1)));
  const fxLegs: { index: number; key: string }[] = [];
  const corporate: { index: number; amount: Decimal | null; currency: string }[] = [];
  const skip = (line: number, reason: string, severity: "info" | "warning") => {
    out.skipped.push({ line, reason });
    out.warnings.push({ code: "rowSkipped", message: reason, row: line, severity });
  };

  for (const l of lines) {
    const row = l.line;
    const description = cell(l, layout.description);
    const date = parseDate(cell(l, layout.date), "DMY");
    const currency = cell(l, layout.change).toUpperCase();
    const amountText = cell(l, layout.change + 1);
    const amount = amountOf(amountText, mark);
    const product = cell(l, layout.product);
    const isin = cell(l, layout.isin);
    const orderId = cell(l, layout.order);
    // What the line was, for a skipped line's reason: its description, product, date and amount.
    const what = lineWas(description, product, cell(l, layout.date), amountText && `${amountText} ${currency}`.trim());
    const left = (why: string, todo: string, severity: "info" | "warning" = "warning") => skip(row, notImported(row, what, why, todo), severity);
    if (!date) {
      skip(row, unreadableLine(row, "Date", cell(l, layout.date), "a date (DD-MM-YYYY)", what), "warning");
      continue;
    }
    if (amountText !== "" && amount === null) {
      skip(row, unreadableLine(row, "Amount", amountText, "a number", what), "warning");
      continue;
    }
    const base = { row, date, ...(orderId ? { orderId } : {}), ...(description ? { description } : {}) };
    const kind = classify(description);

    if (kind.kind === "skip") {
      left(kind.why, kind.todo, kind.severity);
      continue;
    }
    if (kind.kind === "unknown") {
      skip(row, unknownType(row, what), "warning");
      continue;
    }
    if (kind.kind === "trade" || kind.kind === "corporate-unsided") {
      const numbers = tradeNumbers(kind.qty, kind.price, kind.currency, amount, currency);
      const corporateAction = kind.kind === "corporate-unsided" || kind.corporate;
      const asset = hints(product, kind.isin ?? isin);
      if (!numbers || numbers.quantity.isZero()) {
        left(`has a quantity "${kind.qty}" that cannot be read`, "enter it by hand with the quantity from DEGIRO's transactions report");
        continue;
      }
      if (numbers && !numbers.matched && amount !== null && !amount.isZero()) {
        out.warnings.push({
          code: "quantityUnchecked", row, severity: "warning",
          message: `Line ${row}: ${numbers.quantity.toFixed()} × ${numbers.price.toFixed()} ${kind.currency} is not the amount ${amount.abs().toFixed()} ${currency}; check the quantity`,
        });
      }
      if (corporateAction) {
        // Units move without a price of the user's: a quantity adjustment, its cash left to the pair of lines.
        const inbound = kind.kind === "trade" ? kind.side === "BUY" : amount !== null && amount.lt(0) ? true : amount !== null && amount.gt(0) ? false : null;
        if (inbound === null) {
          left("is a corporate action that says neither buy nor sell and moves no cash, so whether units came in or went out is unknown", "enter the units it moved by hand as an ADJUSTMENT");
          continue;
        }
        corporate.push({ index: out.transactions.length, amount, currency });
        out.transactions.push({ ...base, type: "ADJUSTMENT", ...asset, quantity: dec(inbound ? numbers.quantity : numbers.quantity.neg()) });
        continue;
      }
      const buy = kind.kind === "trade" && kind.side === "BUY";
      if (amount === null || amount.isZero() || !/^[A-Z]{3}$/.test(currency)) {
        left("is a trade without an amount and its currency", `enter it by hand as a ${buy ? "BUY" : "SELL"} with the amount from DEGIRO's transactions report`);
        continue;
      }
      if (buy ? !amount.lt(0) : !amount.gt(0)) {
        left(`is a ${buy ? "buy" : "sell"} whose amount has the wrong sign for it`, "check the line and enter it by hand if it was a trade of yours");
        continue;
      }
      out.transactions.push({
        ...base, type: buy ? "BUY" : "SELL", ...asset, quantity: dec(buy ? numbers.quantity : numbers.quantity.neg()), cash: money(amount, currency),
      });
      continue;
    }
    if (amount === null) {
      left("is an information line without an amount", "nothing to enter: it moves no cash", "info");
      continue;
    }
    if (amount.isZero()) {
      left("has an amount of zero", "nothing to enter: it moves no cash", "info");
      continue;
    }
    if (!/^[A-Z]{3}$/.test(currency)) {
      left("has no currency for its amount", "enter it by hand with the currency it was paid in");
      continue;
    }
    if (kind.kind === "fx") {
      fxLegs.push({ index: out.transactions.length, key: orderId || `${cell(l, layout.date)} ${cell(l, layout.time)}` });
      out.transactions.push({ ...base, type: "FX_CONVERSION", quantity: ZERO, cash: money(amount, currency) });
      continue;
    }
    let type = kind.type;
    const positive = amount.gt(0);
    if (type === "DIVIDEND" && !positive) {
      type = "FEE";
      out.warnings.push({ code: "dividendReversal", message: `Line ${row}: a negative dividend (a reversal) was read as a fee on the asset`, row, severity: "info" });
    } else if (type === "TAX" && positive) {
      const onAsset = hints(product, isin).isin !== undefined;
      type = onAsset ? "DIVIDEND" : "INTEREST";
      out.warnings.push({ code: "taxRefund", message: `Line ${row}: a tax refund was read as ${onAsset ? "a dividend" : "interest"}`, row, severity: "info" });
    } else if (type === "FEE" && positive) {
      type = "INTEREST";
      out.warnings.push({ code: "feeRefund", message: `Line ${row}: a fee refund was read as interest`, row, severity: "info" });
    } else if (type === "INTEREST" && !positive) {
      type = "FEE";
    } else if (type === "WITHDRAWAL" && positive) {
      left("is a withdrawal line with a positive amount, not a withdrawal of yours as written", "enter it by hand if money left the account");
      continue;
    } else if (type === "DEPOSIT" && !positive) {
      left("is a deposit line with a negative amount, not a deposit of yours as written", "enter it by hand if money came in");
      continue;
    }
    const withAsset = type === "DIVIDEND" || ((kind.withAsset || type === "FEE") && hints(product, isin).isin !== undefined);
    out.transactions.push({ ...base, type, ...(withAsset ? hints(product, isin) : {}), quantity: ZERO, cash: money(amount, currency) });
  }

  pairLegs(out.transactions, fxLegs);
  settleCorporateActions(out, corporate);
  out.skipped.sort((a, b) => a.line - b.line);
  return { detectedFormat: `degiro/account-statement/${layout.lang}`, skippedRows: out.skipped, transactions: out.transactions, warnings: out.warnings };
}

/** Legs with one key pair up in order (a debit with a credit in another currency); a key's odd leg stays unpaired. */
function pairLegs(transactions: ImportedTransaction[], legs: readonly { index: number; key: string }[]): void {
  const byKey = new Map<string, number[]>();
  for (const l of legs) byKey.set(l.key, [...(byKey.get(l.key) ?? []), l.index]);
  let n = 0;
  for (const [key, indexes] of byKey) {
    const negative = indexes.filter((i) => new Decimal(transactions[i]!.cash!.amount).lt(0));
    const positive = indexes.filter((i) => !new Decimal(transactions[i]!.cash!.amount).lt(0));
    for (const a of negative) {
      const k = positive.findIndex((b) => transactions[b]!.cash!.currency !== transactions[a]!.cash!.currency);
      if (k < 0) continue;
      const [b] = positive.splice(k, 1);
      const pairKey = `fx-${++n}-${key}`;
      for (const i of [a, b!]) transactions[i] = { ...transactions[i]!, pairKey };
    }
  }
}

/**
 * Corporate action lines of one product and day that cancel out (a product change, in and out
 * the same units) are dropped and accounted for as skipped; the others stay quantity adjustments,
 * with a warning that the units received need their cost basis, and that cash the lines carry
 * beyond what cancels is not booked.
 */
function settleCorporateActions(out: Collected, lines: readonly { index: number; amount: Decimal | null; currency: string }[]): void {
  if (lines.length === 0) return;
  const groups = new Map<string, typeof lines[number][]>();
  for (const l of lines) {
    const t = out.transactions[l.index]!;
    const key = `${t.date} ${t.isin ?? t.assetName ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  const drop = new Set<number>();
  for (const group of groups.values()) {
    const rows = group.map((g) => out.transactions[g.index]!);
    const units = rows.reduce((s, t) => s.plus(t.quantity ?? "0"), new Decimal(0));
    const cash = new Map<string, Decimal>();
    for (const g of group) if (g.amount) cash.set(g.currency, (cash.get(g.currency) ?? new Decimal(0)).plus(g.amount));
    if (units.isZero()) {
      for (const g of group) {
        drop.add(g.index);
        const t = out.transactions[g.index]!;
        const partners = rows.filter((p) => p !== t).map((p) => p.row);
        const what = lineWas(t.description ?? "", t.assetName ?? t.isin, t.date);
        const why = `is a corporate action that cancels out with line${partners.length > 1 ? "s" : ""} ${partners.join(", ")}, the same units out and in`;
        out.skipped.push({ line: t.row!, reason: notImported(t.row!, what, why, "nothing to enter: your holding does not change") });
      }
      continue;
    }
    for (const t of rows) {
      out.warnings.push({
        code: "corporateAction", row: t.row, severity: "warning",
        message: `Line ${t.row}: the corporate action "${t.description}" is booked as a quantity adjustment of ${t.quantity}${new Decimal(t.quantity ?? "0").gt(0) ? "; give the cost basis of the units received" : ""}`,
      });
    }
    for (const [currency, amount] of cash) {
      if (amount.isZero()) continue;
      out.warnings.push({
        code: "corporateActionCash", row: rows[0]!.row, severity: "warning",
        message: `Lines ${rows.map((t) => t.row).join(", ")}: the corporate action's cash of ${amount.toFixed()} ${currency} is not booked; enter it by hand if it was paid`,
      });
    }
  }
  if (drop.size > 0) out.transactions.splice(0, out.transactions.length, ...out.transactions.filter((_, i) => !drop.has(i)));
}

/** Guard for a header that looks like the statement but lacks its Change column's amount cell. */
export function assertAccountLayout(layout: Layout, header: readonly string[]): void {
  if (layout.change + 1 >= header.length) throw new PluginError("invalid-input", "The Account.csv has no amount cell after its Change column");
}
