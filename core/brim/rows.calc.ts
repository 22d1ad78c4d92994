import type { ImportedTransaction, ImportWarning } from "../../sdk/index.ts";
import { Decimal } from "../money/decimal.ts";
import type { RuleError } from "../transactions/batch.types.ts";
import { checkRow } from "../transactions/row-validation.calc.ts";
import { TYPE_RULES } from "../transactions/transaction-rules.ts";
import type { TransactionType } from "../transactions/transaction.entity.ts";
import {
  type AssetMappingDoc, FAKE_ASSET_ID_BASE, type FieldTodoDoc, type TxCreateDoc, type ValidationIssueDoc, type WarningDoc,
} from "./parse-result.ts";

/** Pure stages of the BRIM pipeline: from a plugin's rows to commit creates, with what the user must see. */

type Row = ImportedTransaction;

const assetKey = (r: Row): string | null => {
  if (r.isin) return `isin:${r.isin.trim().toUpperCase()}`;
  if (r.symbol) return `sym:${r.symbol.trim().toUpperCase()}`;
  if (r.assetName) return `name:${r.assetName.trim().toLowerCase().replace(/\s+/g, " ")}`;
  return null;
};

/**
 * Fills of one order (same `orderId`, type, day, asset and cash currency) become one row: quantities
 * and cash summed, the first fill's other fields kept. Rows without `orderId` are kept as they are.
 */
export function mergeFills(rows: readonly Row[]): { rows: Row[]; warnings: WarningDoc[] } {
  const out: Row[] = [];
  const groups = new Map<string, { at: number; count: number; rowsSeen: number[] }>();
  const warnings: WarningDoc[] = [];
  for (const r of rows) {
    if (!r.orderId) { out.push(r); continue; }
    const key = [r.orderId, r.type, r.date, assetKey(r) ?? "", r.cash?.currency ?? ""].join("\u0000");
    const seen = groups.get(key);
    if (!seen) {
      groups.set(key, { at: out.length, count: 1, rowsSeen: r.row ? [r.row] : [] });
      out.push(r);
      continue;
    }
    const first = out[seen.at]!;
    const quantity = new Decimal(first.quantity ?? "0").plus(r.quantity ?? "0").toFixed();
    const cash = first.cash && r.cash ? { ...first.cash, amount: new Decimal(first.cash.amount).plus(r.cash.amount).toFixed() } : first.cash ?? r.cash;
    out[seen.at] = { ...first, quantity: quantity as Row["quantity"], cash: cash as Row["cash"] };
    seen.count++;
    if (r.row) seen.rowsSeen.push(r.row);
  }
  for (const [key, g] of groups) {
    if (g.count < 2) continue;
    warnings.push({
      severity: "info", code: "fillsMerged", message: `${g.count} fills of order ${key.split("\u0000")[0]} were merged into one row`,
      evidence: g.rowsSeen.map((n) => `row ${n}`),
    });
  }
  return { rows: out, warnings };
}

/**
 * FX_CONVERSION legs sharing a `pairKey` get one `link_uuid` per pair; a leg without its partner
 * (or with a partner in the same currency) becomes a DEPOSIT or WITHDRAWAL, with a warning, so the
 * ledger never receives half a pair.
 */
export function pairFx(rows: readonly Row[], uuid: () => string): { links: (string | undefined)[]; rows: Row[]; warnings: WarningDoc[] } {
  const byKey = new Map<string, number[]>();
  rows.forEach((r, i) => {
    if (r.type === "FX_CONVERSION" && r.pairKey) byKey.set(r.pairKey, [...(byKey.get(r.pairKey) ?? []), i]);
  });
  const links: (string | undefined)[] = rows.map(() => undefined);
  const out = [...rows];
  const warnings: WarningDoc[] = [];
  for (const idx of byKey.values()) {
    const [a, b] = idx;
    if (idx.length === 2 && out[a!]!.cash?.currency !== out[b!]!.cash?.currency) {
      const link = uuid();
      links[a!] = link;
      links[b!] = link;
    }
  }
  out.forEach((r, i) => {
    if (r.type !== "FX_CONVERSION" || links[i]) return;
    const negative = r.cash ? new Decimal(r.cash.amount).lt(0) : true;
    out[i] = { ...r, type: negative ? "WITHDRAWAL" : "DEPOSIT" };
    warnings.push({
      severity: "warning", code: "fxLegUnpaired",
      message: `A currency exchange leg without its other currency became a ${out[i]!.type}`, evidence: r.row ? [`row ${r.row}`] : [],
    });
  });
  return { links, rows: out, warnings };
}

/** The distinct assets the rows name, each with a fake id, and the fake id of each row. */
export function assignFakeAssets(rows: readonly Row[]): { assetOf: (number | undefined)[]; mappings: AssetMappingDoc[] } {
  const byKey = new Map<string, AssetMappingDoc>();
  const assetOf = rows.map((r, i) => {
    if (TYPE_RULES[r.type as TransactionType].asset === "forbidden") return undefined;
    const key = assetKey(r);
    if (!key) return undefined;
    let mapping = byKey.get(key);
    if (!mapping) {
      mapping = {
        fake_asset_id: FAKE_ASSET_ID_BASE + byKey.size,
        ...(r.symbol ? { extracted_symbol: r.symbol.trim() } : {}),
        ...(r.isin ? { extracted_isin: r.isin.trim().toUpperCase() } : {}),
        ...(r.assetName ? { extracted_name: r.assetName.trim() } : {}),
        ...(r.assetType ? { extracted_asset_type: r.assetType } : {}),
        candidates: [], selected_asset_id: null, notices: [],
      };
      byKey.set(key, mapping);
    } else {
      // Later rows may know more (a name where the first had only the ISIN).
      if (!mapping.extracted_name && r.assetName) mapping.extracted_name = r.assetName.trim();
      if (!mapping.extracted_symbol && r.symbol) mapping.extracted_symbol = r.symbol.trim();
      if (!mapping.extracted_asset_type && r.assetType) mapping.extracted_asset_type = r.assetType;
    }
    const notice = mapping.notices.find((n) => n.kind === "rows");
    if (notice) notice.transaction_indexes.push(i);
    else mapping.notices.push({ kind: "rows", reason: "transactions that use this asset", transaction_indexes: [i] });
    return mapping.fake_asset_id;
  });
  return { assetOf, mappings: [...byKey.values()] };
}

const cashDoc = (m: { amount: string; currency: string } | undefined) => (m ? { code: m.currency, amount: new Decimal(m.amount).toFixed() } : undefined);

/** Commit creates for `brokerId`, in the ledger's field names. */
export function toCreates(rows: readonly Row[], brokerId: number, assetOf: readonly (number | undefined)[], links: readonly (string | undefined)[]): TxCreateDoc[] {
  return rows.map((r, i) => {
    const cash = cashDoc(r.cash);
    const costBasis = cashDoc(r.costBasis);
    const quantity = new Decimal(r.quantity ?? "0");
    return {
      broker_id: brokerId,
      ...(assetOf[i] !== undefined ? { asset_id: assetOf[i] } : {}),
      type: r.type,
      date: r.date,
      quantity: quantity.isZero() ? "0" : quantity.toFixed(),
      ...(cash && !new Decimal(cash.amount).isZero() ? { cash } : {}),
      ...(links[i] ? { link_uuid: links[i] } : {}),
      ...(r.tags?.length ? { tags: [...r.tags] } : {}),
      ...(r.description ? { description: r.description.slice(0, 500) } : {}),
      ...(costBasis ? { cost_basis_override: costBasis } : {}),
    };
  });
}

/** The ledger's own per-row rules (`checkRow`) on each create; fake asset ids count as known. */
export function validateCreates(creates: readonly TxCreateDoc[]): ValidationIssueDoc[] {
  return creates.flatMap((c, i) => {
    const errors: RuleError[] = checkRow({
      assetKnown: true,
      event: null,
      linkUuid: c.link_uuid ?? null,
      requireLink: true,
      row: {
        type: c.type as TransactionType, assetId: c.asset_id ?? null, amount: c.cash?.amount ?? null, quantity: c.quantity,
        assetEventId: null, costBasisMode: null, costBasisOverride: c.cost_basis_override?.amount ?? null,
      },
    });
    return errors.map((e) => ({ row: i, code: e.code, message: e.msg, ...(e.field ? { field: e.field } : {}), ...(e.params ? { params: e.params } : {}) }));
  });
}

/** What the user must fill before commit: an asset for rows that need one, a cost basis for inbound quantity without one. */
export function fieldTodos(creates: readonly TxCreateDoc[], mappings: readonly AssetMappingDoc[], sourceRows: readonly Row[]): FieldTodoDoc[] {
  const selected = new Map(mappings.map((m) => [m.fake_asset_id, m.selected_asset_id]));
  const todos: FieldTodoDoc[] = [];
  creates.forEach((c, i) => {
    const evidence = sourceRows[i]?.row ? [`row ${sourceRows[i]!.row}`] : [];
    const rule = TYPE_RULES[c.type as TransactionType];
    if (c.asset_id === undefined && rule.asset === "required") {
      todos.push({ tx_index: i, field: "asset_id", severity: "blocker", reason_code: "assetMissing", message: `The report names no asset for this ${c.type}; choose one`, evidence });
    } else if (c.asset_id !== undefined && selected.has(c.asset_id) && selected.get(c.asset_id) === null) {
      todos.push({
        tx_index: i, field: "asset_id", severity: "blocker", reason_code: "assetUnmapped",
        message: "Map this asset to one of your assets (or create it) before committing", evidence, context: { fake_asset_id: c.asset_id },
      });
    }
    if ((c.type === "ADJUSTMENT" || c.type === "TRANSFER") && new Decimal(c.quantity).gt(0) && !c.cost_basis_override) {
      todos.push({
        tx_index: i, field: "cost_basis_override", severity: "blocker", reason_code: "costBasisMissing",
        message: "Units received without a price: give a cost basis per unit (or cost_basis_mode auto for a transfer)", evidence,
      });
    }
  });
  return todos;
}

/** A plugin's warnings in the parse result's shape. */
export function pluginWarnings(warnings: readonly ImportWarning[]): WarningDoc[] {
  return warnings.map((w) => ({ severity: w.severity, code: w.code, message: w.message, evidence: w.row ? [`row ${w.row}`] : [] }));
}
