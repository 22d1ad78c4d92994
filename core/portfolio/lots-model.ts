import { Decimal, toDecimalString } from "../money/decimal.ts";
import type { LotsConverter } from "./lots-fx.ts";
import type { CustodyEntry, LotEventRow, LotTx } from "./lots-types.ts";
import type { WacBook } from "./lots-wac.ts";

const ZERO = new Decimal(0);

/** A part of a lot held at one broker, or in transit (`brokerId` null) on the transfer `transitKey`. */
export interface Fragment {
  brokerId: number | null;
  quantity: Decimal;
  transitKey: number | null;
}

/** A closed part of a lot: proceeds and cost in the target currency (null when unknown). */
export interface Closure {
  brokerId: number;
  cost: Decimal | null;
  date: string;
  proceeds: Decimal | null;
  quantity: Decimal;
}

export interface Lot {
  closingDate: string | null;
  closures: Closure[];
  custodyLog: { custody: CustodyEntry[]; date: string }[];
  direction: "LONG" | "SHORT";
  fees: Decimal;
  fragments: Fragment[];
  id: number;
  income: Decimal;
  openingBrokerId: number;
  openingDate: string;
  /** Split-adjusted like every quantity and unit figure of the lot. */
  originalQuantity: Decimal;
  realizedQuantity: Decimal;
  splits: Set<number>;
  taxes: Decimal;
  transferred: boolean;
  /** Cost (LONG) or opening proceeds (SHORT) per current unit, target currency; null when unknown. */
  unitCost: Decimal | null;
}

/** Money into (+) or out of (−) the lots, per lot and day, for the performance series. */
export interface LotFlow {
  amount: Decimal;
  date: string;
  lotId: number;
}

export interface IncomeRecord {
  allocations: { amount: Decimal; lotId: number }[];
  amount: Decimal | null;
  brokerId: number;
  date: string;
  original: { amount: string; code: string };
  txId: number;
  type: "DIVIDEND" | "INTEREST" | "FEE" | "TAX";
}

export interface LedgerContext {
  assetCurrency: string;
  conv: LotsConverter;
  /** The asset's valuation price per unit in the target currency on a day, or null. */
  priceOn: (date: string) => Decimal | null;
  scales: Map<number, Decimal>;
  splitEventIds: Set<number>;
  txById: Map<number, LotTx>;
  wac: WacBook;
  /** Told of each part of a lot a transaction closes, as it closes (the realised-gains pass reads only these). */
  onClose?: (close: { kind: LotEventRow["kind"]; lot: Lot; quantity: Decimal; tx: LotTx }) => void;
  /** False: no event rows and no custody log are kept (a pass that reads only the closes). Default true. */
  trail?: boolean;
}

/** What the replay found that the data-quality report needs. */
export interface LedgerFindings {
  failures: { code: string; date: string; txId: number }[];
  orphanTransfers: { date: string; txId: number }[];
  unknownCost: { date: string; txId: number }[];
}

export function openQuantity(lot: Lot): Decimal {
  return lot.fragments.reduce((s, f) => s.plus(f.quantity), ZERO);
}

/** Where a lot's open units are: brokers by id, then in transit. */
export function custodyOf(lot: Lot): CustodyEntry[] {
  return lot.fragments.filter((f) => f.quantity.gt(0))
    .map((f) => ({ broker_id: f.brokerId, custody_type: f.brokerId === null ? "IN_TRANSIT" as const : "BROKER" as const, quantity: toDecimalString(f.quantity) }))
    .sort((a, b) => (a.broker_id ?? Number.MAX_SAFE_INTEGER) - (b.broker_id ?? Number.MAX_SAFE_INTEGER));
}
