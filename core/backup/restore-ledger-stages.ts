import { KEEPER_REQUIRED } from "../assets/asset-keeper.service.ts";
import { NotAllowedError } from "../errors/domain-error.ts";
import type { RestoreStage } from "./restore-stages.ts";
import { lower, nowStamp } from "./restore-stages.ts";

/** The writing stages of the ledger side of a restore: brokers, the caller's access, transactions, settings. */
const BROKER_FIELDS = ["description", "portal_url", "icon_url", "default_import_plugin", "allow_cash_overdraft", "allow_asset_shorting",
  "is_active", "opened_at"] as const;

/**
 * Brokers are recreated with the caller as OWNER. A broker the caller already sees under the same
 * name (case-insensitive) is a duplicate: kept with its transactions, or, with overwrite, given
 * the export's fields and transactions (its own are deleted), which needs OWNER on it.
 */
export const restoreBrokers: RestoreStage = async (ctx, rows) => {
  const map = ctx.map("brokers");
  const visible = new Map<string, { id: number; role: string }>();
  for (const b of await ctx.tx.query(`SELECT b.id, b.name, a.role FROM brokers b JOIN broker_access a ON a.broker_id = b.id AND a.user_id = ?`, [ctx.userId])) {
    visible.set(lower(b.name), { id: b.id, role: b.role });
  }
  const taken = new Set(visible.keys());
  let next = await ctx.nextId("brokers");
  const created: unknown[][] = [];
  let restored = 0;
  let skipped = 0;
  const matched = new Set<number>();
  for (const row of rows) {
    const found = visible.get(lower(row.name));
    // A stored broker stands for one exported broker only; a second of the same name is created (renamed).
    const current = found && !matched.has(found.id) ? found : undefined;
    if (current) {
      matched.add(current.id);
      map.set(row.id, current.id);
      if (!ctx.overwrite) {
        ctx.keptBrokers.add(row.id);
        skipped++;
        continue;
      }
      if (current.role !== "OWNER") {
        throw new NotAllowedError("BROKER_ROLE_REQUIRED", `Replacing broker "${row.name}" needs the OWNER role on it`, { broker_id: current.id });
      }
      await ctx.tx.query(`DELETE FROM transactions WHERE broker_id = ?`, [current.id]);
      await ctx.tx.query(`UPDATE brokers SET ${BROKER_FIELDS.map((f) => `"${f}" = ?`).join(", ")}, updated_at = datetime('now') WHERE id = ?`,
        [...BROKER_FIELDS.map((f) => row[f]), current.id]);
      restored++;
      continue;
    }
    const newId = next++;
    map.set(row.id, newId);
    // Two exported brokers may share a name (one shared with the exporter); never merge them.
    let name = row.name;
    for (let n = 2; taken.has(lower(name)); n++) name = `${row.name} (${n})`;
    if (name !== row.name) ctx.warnings.push(`Broker "${row.name}" was restored as "${name}": the name was taken`);
    taken.add(lower(name));
    created.push([newId, name, ...BROKER_FIELDS.map((f) => row[f]), row.created_at ?? nowStamp(), row.updated_at ?? nowStamp()]);
    restored++;
  }
  await ctx.insert("brokers", ["id", "name", ...BROKER_FIELDS, "created_at", "updated_at"], created);
  // Every created broker gets the caller as OWNER now; the access stage sets the share.
  await ctx.insert("broker_access", ["user_id", "broker_id", "role", "share_percentage"],
    created.map((values) => [ctx.userId, values[0], "OWNER", "1.000000"]));
  for (const values of created) ctx.createdBrokers.add(values[0] as number);
  ctx.count("brokers", restored, skipped);
};

/**
 * The caller's exported row gives the share of the OWNER row of a created broker, so portfolio
 * figures scale as before: an OWNER's share stays, an EDITOR or VIEWER (who saw full figures)
 * becomes OWNER with share 1. Access of replaced and kept brokers is left as stored.
 */
export const restoreBrokerAccess: RestoreStage = async (ctx, rows) => {
  let restored = 0;
  let skipped = 0;
  for (const row of rows) {
    const brokerId = ctx.mapped("brokers", row.broker_id)!;
    if (!ctx.createdBrokers.has(brokerId)) {
      skipped++;
      continue;
    }
    const share = row.role === "OWNER" ? row.share_percentage : "1.000000";
    await ctx.tx.query(`UPDATE broker_access SET share_percentage = ? WHERE user_id = ? AND broker_id = ?`, [share, ctx.userId, brokerId]);
    restored++;
  }
  ctx.count("broker_access", restored, skipped);
};

const TX_COLUMNS = ["id", "broker_id", "asset_id", "type", "date", "quantity", "amount", "currency", "related_transaction_id", "tags",
  "description", "cost_basis_override", "cost_basis_currency", "cost_basis_mode", "asset_event_id", "created_at", "updated_at"];

/** Transactions of created and replaced brokers; a pair's partner outside the document leaves the leg unlinked (warning). */
export const restoreTransactions: RestoreStage = async (ctx, rows) => {
  const map = ctx.map("transactions");
  const kept = rows.filter((r) => !ctx.keptBrokers.has(r.broker_id));
  let next = await ctx.nextId("transactions");
  for (const row of kept) map.set(row.id, next++);
  let unlinked = 0;
  const missingEvents = kept.filter((r) => r.asset_event_id !== null && ctx.mapped("asset_events", r.asset_event_id) === null);
  if (missingEvents.length) {
    const assets = [...new Set(missingEvents.map((r) => ctx.mapped("assets", r.asset_id)!))].sort((a, b) => a - b);
    throw new NotAllowedError(KEEPER_REQUIRED, `Transactions need events that only the keeper of asset ${assets.join(", ")} or an administrator can add`,
      { asset_ids: assets });
  }
  const values = kept.map((row) => {
    const related = ctx.mapped("transactions", row.related_transaction_id);
    if (row.related_transaction_id !== null && related === null) unlinked++;
    return [map.get(row.id), ctx.mapped("brokers", row.broker_id), ctx.mapped("assets", row.asset_id), row.type, row.date, row.quantity,
      row.amount, row.currency, related, row.tags, row.description, row.cost_basis_override, row.cost_basis_currency, row.cost_basis_mode,
      ctx.mapped("asset_events", row.asset_event_id), row.created_at ?? nowStamp(), row.updated_at ?? nowStamp()];
  });
  await ctx.insert("transactions", TX_COLUMNS, values);
  if (unlinked) ctx.warnings.push(`${unlinked} transaction(s) lost their pair link: the partner leg was not in the export`);
  ctx.count("transactions", kept.length, rows.length - kept.length);
};

/** The caller's settings row (one): kept when it exists, unless overwrite. */
export const restoreUserSettings: RestoreStage = async (ctx, rows) => {
  const row = rows[0];
  if (!row) return;
  const [current] = await ctx.tx.query(`SELECT user_id FROM user_settings WHERE user_id = ?`, [ctx.userId]);
  if (current && !ctx.overwrite) return ctx.count("user_settings", 0, 1);
  await ctx.tx.query(`INSERT INTO user_settings (user_id, base_currency, language, theme, avatar_url) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (user_id) DO UPDATE SET base_currency = excluded.base_currency, language = excluded.language, theme = excluded.theme,
    avatar_url = excluded.avatar_url, updated_at = datetime('now')`, [ctx.userId, row.base_currency, row.language, row.theme, row.avatar_url]);
  ctx.count("user_settings", 1, rows.length - 1);
};
