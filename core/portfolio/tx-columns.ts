/**
 * The scope's transactions as typed columns (docs/portfolio.md "Input"): ids in Int32Arrays, dates
 * as day numbers, type and currencies as small codes into interned tables, quantity, amount and
 * cost-basis override as exact digits and scales (day-columns.ts `putDigits`: a value of more than
 * 15 significant digits keeps its text, so nothing is rounded). No object or string per row is
 * kept; readers go through {@link TxTable}'s accessors by index, or fill one reused `LedgerTx`.
 * Typed arrays, arrays and Maps structured-clone, so the columns cross a worker boundary as they are.
 */
import { dayNumber, dayText } from "../dates/calendar.ts";
import type { Decimal } from "../money/decimal.ts";
import { decimalAt, digitsText, firstDayFrom, putDigits } from "./day-columns.ts";
import type { LedgerTx, ReplayTx } from "./report-input.ts";

/** Exact decimals by row: digits and scale, or the text in `wide`; NaN without a `wide` entry is null. */
export interface DecimalColumn {
  digits: Float64Array;
  scales: Uint8Array;
  wide: Map<number, string> | null;
}

export interface TxColumns {
  ids: Int32Array;
  brokerIds: Int32Array;
  /** {@link NO_ID} for null (as in `relatedIds` and `partnerBrokerIds`). */
  assetIds: Int32Array;
  relatedIds: Int32Array;
  partnerBrokerIds: Int32Array;
  /** Day numbers (core/dates/calendar.ts `dayNumber`), ascending (the rows come by date, id). */
  days: Int32Array;
  /** {@link NO_ID} for null. */
  partnerDays: Int32Array;
  /** Codes into `typeNames`. */
  types: Uint8Array;
  typeNames: string[];
  /** Codes into `currencyNames` (0: null), for `currency` and `costBasisCurrency`. */
  currencies: Uint16Array;
  costBasisCurrencies: Uint16Array;
  currencyNames: (string | null)[];
  quantities: DecimalColumn;
  amounts: DecimalColumn;
  costBasisOverrides: DecimalColumn;
  /** 1: linked to a SPLIT event of its asset. */
  splitLinked: Uint8Array;
}

/** The null of an id or day column (database ids are positive). */
export const NO_ID = -2147483648;

function int32(v: number, what: string): number {
  if ((v | 0) !== v || v === NO_ID) throw new Error(`A transaction's ${what} (${v}) is outside the report's 32-bit range`);
  return v;
}

/** Fills the columns row by row (the loader straight from its SQL rows), then `done`. */
export class TxColumnsWriter {
  private readonly c: TxColumns;
  private n = 0;
  private readonly typeCode = new Map<string, number>();
  private readonly currencyCode = new Map<string | null, number>([[null, 0]]);

  constructor(capacity: number) {
    const decimals = (): DecimalColumn => ({ digits: new Float64Array(capacity), scales: new Uint8Array(capacity), wide: null });
    this.c = {
      ids: new Int32Array(capacity), brokerIds: new Int32Array(capacity), assetIds: new Int32Array(capacity), relatedIds: new Int32Array(capacity),
      partnerBrokerIds: new Int32Array(capacity), days: new Int32Array(capacity), partnerDays: new Int32Array(capacity),
      types: new Uint8Array(capacity), typeNames: [], currencies: new Uint16Array(capacity), costBasisCurrencies: new Uint16Array(capacity),
      currencyNames: [null], quantities: decimals(), amounts: decimals(), costBasisOverrides: decimals(), splitLinked: new Uint8Array(capacity),
    };
  }

  add(
    id: number, brokerId: number, assetId: number | null, type: string, date: string, quantity: string, amount: string | null, currency: string | null,
    relatedId: number | null, partnerBrokerId: number | null, partnerDate: string | null, costBasisOverride: string | null,
    costBasisCurrency: string | null, splitLinked: boolean,
  ): void {
    const c = this.c;
    const i = this.n++;
    c.ids[i] = int32(id, "id");
    c.brokerIds[i] = int32(brokerId, "broker id");
    c.assetIds[i] = assetId === null ? NO_ID : int32(assetId, "asset id");
    c.relatedIds[i] = relatedId === null ? NO_ID : int32(relatedId, "related id");
    c.partnerBrokerIds[i] = partnerBrokerId === null ? NO_ID : int32(partnerBrokerId, "partner broker id");
    c.days[i] = dayNumber(date);
    c.partnerDays[i] = partnerDate === null ? NO_ID : dayNumber(partnerDate);
    c.types[i] = this.typeOf(type);
    c.currencies[i] = this.currencyOf(currency);
    c.costBasisCurrencies[i] = this.currencyOf(costBasisCurrency);
    putDecimal(c.quantities, i, quantity);
    putDecimal(c.amounts, i, amount);
    putDecimal(c.costBasisOverrides, i, costBasisOverride);
    c.splitLinked[i] = splitLinked ? 1 : 0;
  }

  /** Row `i` of `t` as it is (its texts and codes carried over). */
  addRow(t: TxTable, i: number): void {
    this.add(
      t.id(i), t.brokerId(i), t.assetId(i), t.type(i), t.date(i), t.quantity(i), t.amount(i), t.currency(i), t.relatedId(i), t.partnerBrokerId(i),
      t.partnerDate(i), t.costBasisOverride(i), t.costBasisCurrency(i), t.splitLinked(i),
    );
  }

  /**
   * Rows [0, n) of `prev` copied as they are (whole buffers): the writer must be fresh. Its codes
   * then extend `prev`'s tables, so the copied codes keep their meaning.
   */
  addPrefix(prev: TxColumns, n: number): void {
    if (this.n !== 0) throw new Error("addPrefix on a writer that has rows");
    const c = this.c;
    for (const k of ["ids", "brokerIds", "assetIds", "relatedIds", "partnerBrokerIds", "days", "partnerDays", "types", "currencies", "costBasisCurrencies", "splitLinked"] as const) {
      (c[k] as Int32Array).set((prev[k] as Int32Array).subarray(0, n));
    }
    for (const k of ["quantities", "amounts", "costBasisOverrides"] as const) {
      c[k].digits.set(prev[k].digits.subarray(0, n));
      c[k].scales.set(prev[k].scales.subarray(0, n));
      if (prev[k].wide) for (const [i, text] of prev[k].wide!) if (i < n) (c[k].wide ??= new Map()).set(i, text);
    }
    prev.typeNames.forEach((t, code) => { c.typeNames.push(t); this.typeCode.set(t, code); });
    prev.currencyNames.forEach((t, code) => { if (code > 0) { c.currencyNames.push(t); this.currencyCode.set(t, code); } });
    this.n = n;
  }

  done(): TxColumns {
    const c = this.c;
    const n = this.n;
    if (n === c.ids.length) return c;
    const decimals = (d: DecimalColumn): DecimalColumn => ({ digits: d.digits.subarray(0, n), scales: d.scales.subarray(0, n), wide: d.wide });
    return {
      ...c, ids: c.ids.subarray(0, n), brokerIds: c.brokerIds.subarray(0, n), assetIds: c.assetIds.subarray(0, n), relatedIds: c.relatedIds.subarray(0, n),
      partnerBrokerIds: c.partnerBrokerIds.subarray(0, n), days: c.days.subarray(0, n), partnerDays: c.partnerDays.subarray(0, n),
      types: c.types.subarray(0, n), currencies: c.currencies.subarray(0, n), costBasisCurrencies: c.costBasisCurrencies.subarray(0, n),
      quantities: decimals(c.quantities), amounts: decimals(c.amounts), costBasisOverrides: decimals(c.costBasisOverrides),
      splitLinked: c.splitLinked.subarray(0, n),
    };
  }

  private typeOf(type: string): number {
    return intern(this.typeCode, this.c.typeNames, type, 255, "More than 256 transaction types in one report");
  }

  private currencyOf(currency: string | null): number {
    return intern(this.currencyCode, this.c.currencyNames, currency, 65535, "More than 65,535 currencies in one report");
  }
}

/** The code of `value` in `names` (added on first sight), refused past `max`: the code column's width. */
function intern<V>(codes: Map<V, number>, names: V[], value: V, max: number, tooMany: string): number {
  let code = codes.get(value);
  if (code === undefined) {
    code = names.push(value) - 1;
    if (code > max) throw new Error(tooMany);
    codes.set(value, code);
  }
  return code;
}

function putDecimal(col: DecimalColumn, i: number, text: string | null): void {
  if (text !== null && putDigits(col.digits, col.scales, i, text)) return;
  col.digits[i] = NaN;
  if (text !== null) (col.wide ??= new Map()).set(i, text);
}

const isNull = (col: DecimalColumn, i: number): boolean => { const m = col.digits[i]!; return m !== m && !col.wide?.has(i); };

function decimalText(col: DecimalColumn, i: number): string | null {
  return isNull(col, i) ? null : digitsText(col.digits, col.scales, col.wide, i);
}

/** The value of {@link decimalText} as a Decimal, without the text. */
function decimalValue(col: DecimalColumn, i: number): Decimal | null {
  return isNull(col, i) ? null : decimalAt(col.digits, col.scales, col.wide, i);
}

/** The columns of transactions written as objects (tests, tools). */
export function txColumnsOf(txs: readonly LedgerTx[]): TxColumns {
  const w = new TxColumnsWriter(txs.length);
  for (const t of txs) {
    w.add(t.id, t.brokerId, t.assetId, t.type, t.date, t.quantity, t.amount, t.currency, t.relatedId, t.partnerBrokerId, t.partnerDate,
      t.costBasisOverride, t.costBasisCurrency, t.splitLinked);
  }
  return w.done();
}

/** Rows [0, n) of `prev` then every row of `delta` (an incremental report's transactions). */
export function spliceTxColumns(prev: TxColumns, n: number, delta: TxColumns): TxColumns {
  const w = new TxColumnsWriter(n + delta.ids.length);
  w.addPrefix(prev, n);
  const d = new TxTable(delta);
  for (let i = 0; i < d.length; i++) w.addRow(d, i);
  return w.done();
}

/** Index-based reads of the columns: no object per row. */
export class TxTable {
  readonly length: number;

  constructor(readonly columns: TxColumns) {
    this.length = columns.ids.length;
  }

  id(i: number): number { return this.columns.ids[i]!; }
  brokerId(i: number): number { return this.columns.brokerIds[i]!; }
  assetId(i: number): number | null { const v = this.columns.assetIds[i]!; return v === NO_ID ? null : v; }
  relatedId(i: number): number | null { const v = this.columns.relatedIds[i]!; return v === NO_ID ? null : v; }
  partnerBrokerId(i: number): number | null { const v = this.columns.partnerBrokerIds[i]!; return v === NO_ID ? null : v; }
  /** The row's day number. */
  day(i: number): number { return this.columns.days[i]!; }
  date(i: number): string { return dayText(this.columns.days[i]!); }
  partnerDate(i: number): string | null { const v = this.columns.partnerDays[i]!; return v === NO_ID ? null : dayText(v); }
  type(i: number): string { return this.columns.typeNames[this.columns.types[i]!]!; }
  currency(i: number): string | null { return this.columns.currencyNames[this.columns.currencies[i]!]!; }
  costBasisCurrency(i: number): string | null { return this.columns.currencyNames[this.columns.costBasisCurrencies[i]!]!; }
  quantity(i: number): string { return decimalText(this.columns.quantities, i)!; }
  /** `new Decimal(quantity(i))`, without the text. */
  quantityDecimal(i: number): Decimal { return decimalValue(this.columns.quantities, i)!; }
  /** `new Decimal(amount(i))` (null when the row has no amount), without the text. */
  amountDecimal(i: number): Decimal | null { return decimalValue(this.columns.amounts, i); }
  amount(i: number): string | null { return decimalText(this.columns.amounts, i); }
  costBasisOverride(i: number): string | null { return decimalText(this.columns.costBasisOverrides, i); }
  splitLinked(i: number): boolean { return this.columns.splitLinked[i] === 1; }

  /** Index of the first row dated on or after `day` (a day number); the length when none. */
  firstFrom(day: number): number {
    return firstDayFrom(this.columns.days, day);
  }

  /**
   * Fills `into` with row `i` (one object reused over a loop) and returns it; the quantity and
   * amount are read apart, as Decimals (`quantityDecimal`, `amountDecimal`).
   */
  read(i: number, into: ReplayTx): ReplayTx {
    into.id = this.id(i);
    into.brokerId = this.brokerId(i);
    into.assetId = this.assetId(i);
    into.type = this.type(i);
    into.date = this.date(i);
    into.currency = this.currency(i);
    into.relatedId = this.relatedId(i);
    into.partnerBrokerId = this.partnerBrokerId(i);
    into.partnerDate = this.partnerDate(i);
    into.costBasisOverride = this.costBasisOverride(i);
    into.costBasisCurrency = this.costBasisCurrency(i);
    into.splitLinked = this.splitLinked(i);
    return into;
  }

  /** Row `i` as a fresh object (tests, tools; the engine reads by index or through `read`). */
  row(i: number): LedgerTx {
    return { ...this.read(i, emptyTx()), quantity: this.quantity(i), amount: this.amount(i) };
  }
}

/** A `ReplayTx` to fill with {@link TxTable.read}. */
export function emptyTx(): ReplayTx {
  return {
    id: 0, brokerId: 0, assetId: null, type: "", date: "", currency: null, relatedId: null, partnerBrokerId: null,
    partnerDate: null, costBasisOverride: null, costBasisCurrency: null, splitLinked: false,
  };
}
