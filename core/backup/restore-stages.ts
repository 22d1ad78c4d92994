import { ConflictError } from "../errors/domain-error.ts";
import { MANUAL_PROVIDER } from "../fx/route-search.calc.ts";
import type { RestoreContext } from "./restore-context.ts";

/**
 * The writing stages of a restore, one per section (sections.ts lists them in order): here the
 * market-data side, the ledger side in restore-ledger-stages.ts. Each maps document ids to stored
 * ids for the stages below it, and counts restored and skipped rows. A duplicate is kept as
 * stored unless `overwrite_existing`, which replaces it.
 */
export type RestoreStage = (ctx: RestoreContext, rows: Record<string, any>[]) => Promise<void>;

export const nowStamp = () => new Date().toISOString().replace("T", " ").slice(0, 19);
export const lower = (s: string) => s.trim().toLowerCase();

const ASSET_FIELDS = ["active", "asset_type", "icon_url", "user_url", "quote_base_quantity", "identifier_isin", "identifier_ticker",
  "identifier_cusip", "identifier_sedol", "identifier_figi", "identifier_uuid", "identifier_other", "classification_params"] as const;

/** Assets are matched by ISIN, then ticker, then name (names are unique), each in the same currency; otherwise created. */
export const restoreAssets: RestoreStage = async (ctx, rows) => {
  const map = ctx.map("assets");
  const stored: { id: number; name: string; currency: string; identifier_isin: string | null; identifier_ticker: string | null;
    keeper_user_id: number | null }[] =
    await ctx.tx.query(`SELECT id, name, currency, identifier_isin, identifier_ticker, keeper_user_id FROM assets ORDER BY id`);
  type Stored = (typeof stored)[number];
  const byIsin = new Map<string, Stored>();
  const byTicker = new Map<string, Stored>();
  const names = new Map<string, Stored>();
  const remember = (a: Stored) => {
    if (a.identifier_isin) byIsin.set(`${a.currency}|${a.identifier_isin.toUpperCase()}`, byIsin.get(`${a.currency}|${a.identifier_isin.toUpperCase()}`) ?? a);
    if (a.identifier_ticker) byTicker.set(`${a.currency}|${a.identifier_ticker.toUpperCase()}`, byTicker.get(`${a.currency}|${a.identifier_ticker.toUpperCase()}`) ?? a);
    names.set(lower(a.name), a);
  };
  stored.forEach(remember);
  const find = (row: Record<string, any>) =>
    (row.identifier_isin ? byIsin.get(`${row.currency}|${row.identifier_isin.toUpperCase()}`) : undefined)
    ?? (row.identifier_ticker ? byTicker.get(`${row.currency}|${row.identifier_ticker.toUpperCase()}`) : undefined)
    ?? names.get(lower(row.name));
  let next = await ctx.nextId("assets");
  const created: unknown[][] = [];
  let restored = 0;
  let skipped = 0;
  for (const row of rows) {
    const match = find(row);
    if (match && match.currency !== row.currency) {
      throw new ConflictError("BACKUP_ASSET_CONFLICT", `Asset "${row.name}" exists in ${match.currency}, the export has it in ${row.currency}`,
        { name: row.name, stored_currency: match.currency, export_currency: row.currency });
    }
    if (match) {
      map.set(row.id, match.id);
      ctx.matchedAssets.add(match.id);
      if (!ctx.isSuperuser && match.keeper_user_id !== ctx.userId) {
        // Someone else's asset (docs/assets.md): its fields and market data stay as they are.
        ctx.lockedAssets.add(match.id);
        ctx.warnings.push(`Asset "${match.name}" is kept by another user: it and its market data were left as stored`);
        skipped++;
      } else if (ctx.overwrite) {
        await ctx.tx.query(`UPDATE assets SET ${ASSET_FIELDS.map((f) => `"${f}" = ?`).join(", ")}, updated_at = datetime('now') WHERE id = ?`,
          [...ASSET_FIELDS.map((f) => row[f]), match.id]);
        restored++;
      } else skipped++;
      continue;
    }
    const newId = next++;
    map.set(row.id, newId);
    remember({ id: newId, name: row.name, currency: row.currency, identifier_isin: row.identifier_isin, identifier_ticker: row.identifier_ticker,
      keeper_user_id: ctx.userId });
    // The restorer keeps the assets the restore creates, as if created through POST /assets.
    created.push([newId, row.name, row.currency, ...ASSET_FIELDS.map((f) => row[f]), ctx.userId, row.created_at ?? nowStamp(), row.updated_at ?? nowStamp()]);
    restored++;
  }
  await ctx.insert("assets", ["id", "name", "currency", ...ASSET_FIELDS, "keeper_user_id", "created_at", "updated_at"], created);
  ctx.count("assets", restored, skipped);
};

/** One assignment per asset: an asset that already has one keeps it (or gets the export's fields with overwrite). */
export const restoreAssignments: RestoreStage = async (ctx, rows) => {
  const map = ctx.map("provider_assignments");
  const existing = new Map<number, number>();
  for (const r of await ctx.tx.query(`SELECT id, asset_id FROM asset_provider_assignments`) as { id: number; asset_id: number }[]) existing.set(r.asset_id, r.id);
  let next = await ctx.nextId("asset_provider_assignments");
  const created: unknown[][] = [];
  let restored = 0;
  let skipped = 0;
  for (const row of rows) {
    const assetId = ctx.mapped("assets", row.asset_id)!;
    const current = existing.get(assetId);
    if (ctx.lockedAssets.has(assetId)) {
      if (current !== undefined) map.set(row.id, current);
      skipped++;
      continue;
    }
    if (current !== undefined) {
      map.set(row.id, current);
      if (ctx.overwrite) {
        await ctx.tx.query(`UPDATE asset_provider_assignments SET provider_code = ?, identifier = ?, identifier_type = ?, provider_params = ?,
          updated_at = datetime('now') WHERE id = ?`, [row.provider_code, row.identifier, row.identifier_type, row.provider_params, current]);
        restored++;
      } else skipped++;
      continue;
    }
    const newId = next++;
    map.set(row.id, newId);
    existing.set(assetId, newId);
    created.push([newId, assetId, row.provider_code, row.identifier, row.identifier_type, row.provider_params, row.last_fetch_at ?? null,
      row.created_at ?? nowStamp(), row.updated_at ?? nowStamp()]);
    restored++;
  }
  await ctx.insert("asset_provider_assignments", ["id", "asset_id", "provider_code", "identifier", "identifier_type", "provider_params",
    "last_fetch_at", "created_at", "updated_at"], created);
  ctx.count("provider_assignments", restored, skipped);
};

/**
 * An event duplicates a stored one of the same asset, day, type and origin (manual or provider).
 * Events have no unique key (two dividends on one day are allowed), so each stored event matches
 * at most one exported event, in id order; events created by this restore never match.
 */
export const restoreEvents: RestoreStage = async (ctx, rows) => {
  const map = ctx.map("asset_events");
  const key = (assetId: number, r: Record<string, any>) => `${assetId}|${r.date}|${r.type}|${r.provider_assignment_id === null ? "M" : "P"}`;
  const existing = new Map<string, number[]>();
  const matched = [...ctx.matchedAssets];
  for (let i = 0; i < matched.length; i += 500) {
    const ids = matched.slice(i, i + 500);
    const stored = await ctx.tx.query(`SELECT id, asset_id, date, type, provider_assignment_id FROM asset_events
      WHERE asset_id IN (${ids.map(() => "?").join(", ")}) ORDER BY id`, ids);
    for (const e of stored) {
      const k = key(e.asset_id, e);
      existing.set(k, [...(existing.get(k) ?? []), e.id]);
    }
  }
  let next = await ctx.nextId("asset_events");
  const created: unknown[][] = [];
  let restored = 0;
  let skipped = 0;
  for (const row of rows) {
    const assetId = ctx.mapped("assets", row.asset_id)!;
    const assignment = ctx.mapped("provider_assignments", row.provider_assignment_id);
    const current = existing.get(key(assetId, row))?.shift();
    if (ctx.lockedAssets.has(assetId)) {
      // Not created on someone else's asset; a transaction linked to it is refused in its stage.
      if (current !== undefined) map.set(row.id, current);
      skipped++;
      continue;
    }
    if (current !== undefined) {
      map.set(row.id, current);
      if (ctx.overwrite) {
        await ctx.tx.query(`UPDATE asset_events SET value = ?, currency = ?, notes = ?, provider_assignment_id = ?, updated_at = datetime('now') WHERE id = ?`,
          [row.value, row.currency, row.notes, assignment, current]);
        restored++;
      } else skipped++;
      continue;
    }
    const newId = next++;
    map.set(row.id, newId);
    created.push([newId, assetId, row.date, row.type, row.value, row.currency, assignment, row.notes, row.created_at ?? nowStamp(), row.updated_at ?? nowStamp()]);
    restored++;
  }
  await ctx.insert("asset_events", ["id", "asset_id", "date", "type", "value", "currency", "provider_assignment_id", "notes", "created_at", "updated_at"], created);
  ctx.count("asset_events", restored, skipped);
};

const PRICE_COLUMNS = ["asset_id", "date", "open", "high", "low", "close", "volume", "currency", "source_plugin_key", "provider_assignment_id", "updated_at"];

/** Prices are keyed by (asset, day). */
export const restorePrices: RestoreStage = async (ctx, rows) => {
  const existing = new Set<string>();
  const matched = [...ctx.matchedAssets];
  for (let i = 0; i < matched.length; i += 500) {
    const ids = matched.slice(i, i + 500);
    const stored = await ctx.tx.query(`SELECT asset_id, date FROM price_history WHERE asset_id IN (${ids.map(() => "?").join(", ")})`, ids);
    for (const p of stored) existing.add(`${p.asset_id}|${p.date}`);
  }
  const writable = rows.filter((row) => !ctx.lockedAssets.has(ctx.mapped("assets", row.asset_id)!));
  ctx.count("prices", 0, rows.length - writable.length);
  await ctx.upsertKeyed("prices", writable, {
    table: "price_history", columns: PRICE_COLUMNS, stored: existing,
    key: (row) => `${ctx.mapped("assets", row.asset_id)}|${row.date}`,
    values: (row) => [ctx.mapped("assets", row.asset_id), row.date, row.open, row.high, row.low, row.close, row.volume, row.currency,
      row.source_plugin_key, ctx.mapped("provider_assignments", row.provider_assignment_id), row.updated_at ?? nowStamp()],
    update: (_, values) => ctx.tx.query(`UPDATE price_history SET open = ?, high = ?, low = ?, close = ?, volume = ?, currency = ?,
      source_plugin_key = ?, provider_assignment_id = ?, updated_at = ? WHERE asset_id = ? AND date = ?`, [...values.slice(2), values[0], values[1]]),
  });
};

const isManualChain = (chainSteps: string) => {
  const steps = JSON.parse(chainSteps) as { provider: string }[];
  return steps.length === 1 && steps[0]!.provider.toUpperCase() === MANUAL_PROVIDER;
};

/**
 * The shared FX routes and rates value every user's portfolio, so only an administrator's restore
 * writes them (docs/fx.md "Who changes FX data"); anyone else's leaves them as stored, counted as
 * skipped with a warning. True when the section is skipped so.
 */
function sharedFxKept(ctx: RestoreContext, section: string, what: string, rows: readonly unknown[]): boolean {
  if (ctx.isSuperuser) return false;
  ctx.count(section, 0, rows.length);
  if (rows.length > 0) ctx.warnings.push(`${rows.length} ${what} left as stored: only an administrator changes the shared FX data (private rates are restored)`);
  return true;
}

/**
 * Routes are keyed by (pair, priority). As when routes are saved through the API, a pair with a
 * provider route keeps no MANUAL placeholder: an exported placeholder is skipped for such a pair,
 * and a restored provider route removes the stored placeholder. Administrators only.
 */
export const restoreFxRoutes: RestoreStage = async (ctx, rows) => {
  if (sharedFxKept(ctx, "fx_routes", "FX route(s)", rows)) return;
  const existing = new Map<string, { id: number; manual: boolean }>();
  const providerRouted = new Set<string>();
  for (const r of await ctx.tx.query(`SELECT id, base, quote, priority, chain_steps FROM fx_routes`)) {
    const manual = isManualChain(r.chain_steps);
    existing.set(`${r.base}|${r.quote}|${r.priority}`, { id: r.id, manual });
    if (!manual) providerRouted.add(`${r.base}|${r.quote}`);
  }
  for (const row of rows) if (!isManualChain(row.chain_steps)) providerRouted.add(`${row.base}|${row.quote}`);
  let restored = 0;
  let skipped = 0;
  for (const row of rows) {
    const pair = `${row.base}|${row.quote}`;
    const current = existing.get(`${pair}|${row.priority}`);
    if (isManualChain(row.chain_steps) && providerRouted.has(pair)) skipped++;
    else if (current === undefined) {
      await ctx.tx.query(`INSERT INTO fx_routes (base, quote, priority, chain_steps) VALUES (?, ?, ?, ?)`, [row.base, row.quote, row.priority, row.chain_steps]);
      restored++;
    } else if (ctx.overwrite) {
      await ctx.tx.query(`UPDATE fx_routes SET chain_steps = ?, updated_at = datetime('now') WHERE id = ?`, [row.chain_steps, current.id]);
      restored++;
    } else skipped++;
  }
  for (const [key, route] of existing) {
    const pair = key.split("|").slice(0, 2).join("|");
    if (route.manual && providerRouted.has(pair)) await ctx.tx.query(`DELETE FROM fx_routes WHERE id = ?`, [route.id]);
  }
  ctx.count("fx_routes", restored, skipped);
};

/** Rates are keyed by (pair, provider, day). Administrators only. */
export const restoreFxRates: RestoreStage = async (ctx, rows) => {
  if (sharedFxKept(ctx, "fx_rates", "shared FX rate(s)", rows)) return;
  const existing = new Set<string>();
  const pairs = new Set(rows.map((r) => `${r.base}|${r.quote}`));
  for (const pair of pairs) {
    const [base, quote] = pair.split("|");
    for (const r of await ctx.tx.query(`SELECT provider, date FROM fx_rates WHERE base = ? AND quote = ?`, [base, quote])) existing.add(`${pair}|${r.provider}|${r.date}`);
  }
  await ctx.upsertKeyed("fx_rates", rows, {
    table: "fx_rates", columns: ["base", "quote", "provider", "date", "rate", "source", "updated_at"], stored: existing,
    key: (row) => `${row.base}|${row.quote}|${row.provider}|${row.date}`,
    values: (row) => [row.base, row.quote, row.provider, row.date, row.rate, row.source, row.updated_at ?? nowStamp()],
    update: (row, values) => ctx.tx.query(`UPDATE fx_rates SET rate = ?, source = ?, updated_at = ? WHERE base = ? AND quote = ? AND provider = ? AND date = ?`,
      [row.rate, row.source, values[6], row.base, row.quote, row.provider, row.date]),
  });
};

/** The exported user's private rates become the restorer's own, keyed by (pair, day). */
export const restoreFxPrivateRates: RestoreStage = async (ctx, rows) => {
  const existing = new Set<string>();
  for (const r of await ctx.tx.query(`SELECT base, quote, date FROM fx_private_rates WHERE user_id = ?`, [ctx.userId])) {
    existing.add(`${r.base}|${r.quote}|${String(r.date)}`);
  }
  await ctx.upsertKeyed("fx_private_rates", rows, {
    table: "fx_private_rates", columns: ["user_id", "base", "quote", "date", "rate", "source", "updated_at"], stored: existing, firstWins: true,
    key: (row) => `${row.base}|${row.quote}|${row.date}`,
    values: (row) => [ctx.userId, row.base, row.quote, row.date, row.rate, row.source, row.updated_at ?? nowStamp()],
    update: (row, values) => ctx.tx.query(`UPDATE fx_private_rates SET rate = ?, source = ?, updated_at = ? WHERE user_id = ? AND base = ? AND quote = ? AND date = ?`,
      [row.rate, row.source, values[6], ctx.userId, row.base, row.quote, row.date]),
  });
};
