/**
 * The data-quality panel: every issue with its severity, message and the action that fixes it
 * (docs/decisions.md, "Data-quality CTAs"): missing price → the asset's price editor, missing FX pair →
 * the FX page's add dialog with the pair filled in, missing rates → a sync of every affected
 * pair (7 days of padding each side, end capped at today, 120 s timeout), unknown cost basis →
 * the asset's transactions.
 */
import { useState } from "preact/hooks";
import { api, errorText } from "../api/client.ts";
import type { DataQualityIssue } from "../api/types.ts";
import { Link } from "../lib/router.tsx";
import { useApp } from "../lib/store.ts";
import { Badge, today } from "./ui.tsx";
import { msg, t } from "../lib/i18n.ts";

const MESSAGES: Record<string, (i: DataQualityIssue) => string> = {
  MISSING_PRICE: (i) => t("No price on the end date for {count} position(s); they are left out of the net worth.", { count: i.count }),
  TRANSACTION_IMPLIED: () => t("Valued at a trade price instead of a market quote."),
  STALE_PRICE: (i) => t("The last market price is more than 7 days old for {count} asset(s).", { count: i.count }),
  MISSING_COST_BASIS: () => t("Units were added without a cost basis; they count at zero cost."),
  MISSING_FX_MARKET: (i) => t("No exchange rate pair is configured for {pairs}.", { pairs: i.affected_fx_pairs.join(", ") || t("a needed conversion") }),
  MISSING_FX_RATES: (i) => t("Exchange rates are missing on some dates for {pairs}.", { pairs: i.affected_fx_pairs.join(", ") }),
  FX_PRIVATE_RATES_USED: (i) => t("Your private exchange rates filled gaps for {pairs}; other users' figures do not use them.", { pairs: i.affected_fx_pairs.join(", ") }),
  NAV_INCOMPLETE: () => t("On some days an asset was held without any price, so the history is incomplete."),
  MWRR_NOT_CALCULABLE: () => t("The money-weighted return cannot be computed for this period."),
  MWRR_SERIES_UNRELIABLE: () => t("The money-weighted return history could not be made consistent and is hidden."),
};

/** Severity names as shown on the badges. */
const SEVERITY: Record<string, string> = { error: msg("error"), warning: msg("warning"), info: msg("info") };

export function issueMessage(i: DataQualityIssue): string {
  return MESSAGES[i.code]?.(i) ?? i.code;
}

function shiftDate(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The FX sync window: 7 days each side of the issue's dates, end capped at today. */
export function fxSyncWindow(i: DataQualityIssue, now = today()): { start: string; end: string } {
  const from = (i.message_params as Record<string, unknown>)?.date_from ?? i.date_range?.start;
  const to = (i.message_params as Record<string, unknown>)?.date_to ?? i.date_range?.end;
  if (typeof from !== "string" || typeof to !== "string") return { start: "min", end: now };
  const end = shiftDate(to, 7);
  return { start: shiftDate(from, -7), end: end > now ? now : end };
}

function Cta(props: { issue: DataQualityIssue; onFixed(): void }) {
  const i = props.issue;
  const admin = useApp().me.is_superuser;
  const [state, setState] = useState<{ busy: boolean; msg?: string }>({ busy: false });
  const run = async (work: (signal: AbortSignal) => Promise<string>) => {
    setState({ busy: true });
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 120_000);
    try {
      setState({ busy: false, msg: await work(controller.signal) });
      props.onFixed();
    } catch (e) {
      setState({ busy: false, msg: controller.signal.aborted ? t("The sync took longer than 2 minutes and was stopped.") : errorText(e) });
    } finally {
      clearTimeout(timer);
    }
  };
  switch (i.cta_action) {
    case "navigate_asset":
      if (i.code === "MISSING_COST_BASIS") {
        return <Link class="cta" href={`/transactions?asset_id=${encodeURIComponent(i.cta_target ?? "")}`}>{t("Review the transactions")}</Link>;
      }
      return (
        <span class="cta-list">
          {(i.affected_asset_ids.length ? i.affected_asset_ids : [Number(i.cta_target)]).map((id, n) => (
            <Link key={id} class="cta" href={`/assets/${id}?tab=prices`}>{t("Add prices for {name}", { name: i.affected_asset_names[n] ?? t("asset {id}", { id }) })}</Link>
          ))}
        </span>
      );
    case "navigate_fx":
      return <Link class="cta" href={`/fx/${encodeURIComponent(i.cta_target ?? "")}`}>{t("Enter rates for {pair}", { pair: i.cta_target ?? "" })}</Link>;
    case "add_fx_pair":
      // Only administrators add shared pairs (docs/fx.md); anyone else fills the gap with private rates.
      return admin
        ? <Link class="cta" href={`/fx?add=${encodeURIComponent(i.cta_target ?? "")}`}>{t("Add the pair {pair}", { pair: i.cta_target ?? "" })}</Link>
        : <Link class="cta" href={`/fx/${encodeURIComponent(i.cta_target ?? "")}`}>{t("Enter your own rates for {pair}", { pair: i.cta_target ?? "" })}</Link>;
    case "sync_fx_pair":
      return (
        <span>
          <button type="button" class="cta" disabled={state.busy} onClick={() => run(async (signal) => {
            const w = fxSyncWindow(i);
            const r = await api.post("/fx/currencies/sync", { body: { pairs: i.affected_fx_pairs, start: w.start, end: w.end }, signal });
            return t("Synced: {results}", { results: r.results.map((x) => `${x.pair} ${x.status}`).join(", ") });
          })}>{state.busy ? t("Syncing…") : t("Sync {pairs}", { pairs: i.affected_fx_pairs.join(", ") })}</button>
          {state.msg && <span class="muted" role="status"> {state.msg}</span>}
        </span>
      );
    case "sync_asset_prices":
      return (
        <span>
          <button type="button" class="cta" disabled={state.busy} onClick={() => run(async (signal) => {
            const r = await api.post("/assets/prices/sync", { body: i.affected_asset_ids.map((asset_id) => ({ asset_id, date_range: { start: "resume" as const } })), signal });
            return t("Prices synced: {count} change(s).", { count: r.total_points_changed });
          })}>{state.busy ? t("Syncing…") : t("Sync prices")}</button>
          {state.msg && <span class="muted" role="status"> {state.msg}</span>}
        </span>
      );
    default:
      return null;
  }
}

export function DataQualityPanel(props: { issues: DataQualityIssue[]; onFixed(): void }) {
  if (props.issues.length === 0) return <p class="muted">{t("No data-quality issues.")}</p>;
  return (
    <ul class="dq-list">
      {props.issues.map((i, n) => (
        <li key={`${i.code}-${n}`} class={`dq ${i.severity}`}>
          <Badge kind={i.severity}>{t(SEVERITY[i.severity] ?? i.severity)}</Badge>{" "}
          <strong>{i.affected_asset_names.length > 0 && i.code !== "MISSING_PRICE" && i.code !== "STALE_PRICE" ? `${i.affected_asset_names.join(", ")}: ` : ""}</strong>
          <span>{issueMessage(i)}</span>
          {i.code === "MISSING_PRICE" || i.code === "STALE_PRICE"
            ? <span class="muted"> ({i.affected_asset_names.join(", ")})</span> : null}
          <div><Cta issue={i} onFixed={props.onFixed} /></div>
        </li>
      ))}
    </ul>
  );
}
