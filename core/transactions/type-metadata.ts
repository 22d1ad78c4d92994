import { ASSET_EVENT_TYPES, type AssetEventType } from "../events/asset-event.entity.ts";
import { TRANSACTION_TYPES, type TransactionType } from "./transaction.entity.ts";
import {
  costBasisPair, costBasisRule, type CostBasisRule, EVENT_COMPATIBILITY, eventTypesFor, type FieldMode, type PairConstraint,
  type PairLayout, PROMOTE_RULES, type SignRule, swapGroup, TYPE_RULES,
} from "./transaction-rules.ts";

/** Display data of each type; the rules come from TYPE_RULES. */
const DISPLAY: Record<TransactionType, { description: string; docSlug: string | null; iconSlug: string; name: string }> = {
  BUY: { name: "Buy", description: "Purchase an asset with cash", iconSlug: "buy", docSlug: "buy-sell" },
  SELL: { name: "Sell", description: "Sell an asset for cash", iconSlug: "sell", docSlug: "buy-sell" },
  DIVIDEND: { name: "Dividend", description: "Dividend payment received", iconSlug: "dividend", docSlug: "dividend" },
  INTEREST: { name: "Interest", description: "Interest payment (bond or deposit)", iconSlug: "interest", docSlug: "interest" },
  DEPOSIT: { name: "Deposit", description: "Add cash to the broker account", iconSlug: "deposit", docSlug: "deposit-withdrawal" },
  WITHDRAWAL: { name: "Withdrawal", description: "Remove cash from the broker account", iconSlug: "withdrawal", docSlug: "deposit-withdrawal" },
  FEE: { name: "Fee", description: "Fee or commission (trading or account)", iconSlug: "fee", docSlug: "fee" },
  TAX: { name: "Tax", description: "Tax payment (capital gains or stamp duty)", iconSlug: "tax", docSlug: "fee" },
  ADJUSTMENT: { name: "Adjustment", description: "Quantity correction without cash (splits, gifts)", iconSlug: "adjustment", docSlug: "adjustment" },
  TRANSFER: { name: "Asset Transfer", description: "Asset moved between two brokers (paired)", iconSlug: "transfer", docSlug: "transfer" },
  FX_CONVERSION: { name: "FX Conversion", description: "Currency exchange within one broker (paired)", iconSlug: "fx-conversion", docSlug: "fx-conversion" },
  CASH_TRANSFER: { name: "Cash Transfer", description: "Cash wired between two brokers (paired)", iconSlug: "cash-transfer", docSlug: "cash-transfer" },
};

const EVENT_DISPLAY: Record<AssetEventType, { emoji: string; name: string }> = {
  DIVIDEND: { name: "Dividend", emoji: "💰" },
  INTEREST: { name: "Interest", emoji: "📈" },
  PRICE_ADJUSTMENT: { name: "Price Adjustment", emoji: "📊" },
  SPLIT: { name: "Split", emoji: "✂️" },
  MATURITY_SETTLEMENT: { name: "Maturity Settlement", emoji: "🏁" },
};

export interface TypeMeta {
  assetMode: FieldMode;
  cashMode: FieldMode;
  cashSign: SignRule;
  code: TransactionType;
  compatibleEventTypes: AssetEventType[];
  costBasisMode: CostBasisRule;
  costBasisPair: [CostBasisRule, CostBasisRule] | null;
  description: string;
  docSlug: string | null;
  eventCompatible: boolean;
  iconSlug: string;
  name: string;
  pairConstraints: readonly PairConstraint[] | null;
  pairLayout: PairLayout | null;
  promoteFrom: { fieldConstraints: readonly PairConstraint[]; typeA: TransactionType; typeB: TransactionType }[] | null;
  quantityMode: FieldMode;
  quantitySign: SignRule;
  requiresLink: boolean;
  splitInto: { from: TransactionType; to: TransactionType } | null;
  swapGroup: TransactionType[];
}

export function typeMetadata(): TypeMeta[] {
  return TRANSACTION_TYPES.map((code) => {
    const rule = TYPE_RULES[code];
    const promotes = PROMOTE_RULES.filter((p) => p.to === code);
    return {
      code, ...DISPLAY[code],
      assetMode: rule.asset, cashMode: rule.cash, quantityMode: rule.quantity,
      requiresLink: rule.paired, quantitySign: rule.quantitySign, cashSign: rule.cashSign,
      eventCompatible: eventTypesFor(code).length > 0, compatibleEventTypes: eventTypesFor(code),
      pairLayout: rule.pairLayout, splitInto: rule.splitInto,
      promoteFrom: promotes.length ? promotes.map((p) => ({ typeA: p.from[0], typeB: p.from[1], fieldConstraints: rule.pairConstraints })) : null,
      pairConstraints: rule.paired ? rule.pairConstraints : null,
      swapGroup: swapGroup(code), costBasisMode: costBasisRule(code), costBasisPair: costBasisPair(code),
    };
  });
}

export function eventTypeMetadata(): { code: AssetEventType; compatibleTxTypes: TransactionType[]; emoji: string; name: string }[] {
  return ASSET_EVENT_TYPES.map((code) => ({ code, ...EVENT_DISPLAY[code], compatibleTxTypes: EVENT_COMPATIBILITY[code] }));
}
