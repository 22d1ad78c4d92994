/**
 * Tools: the PAC allocator (a monthly amount → what to buy) and the rebalancer (targets →
 * trades) of POST /tools/compute, on a broker's holdings (`positions_from`: the API fills each
 * held asset's quantity and price). The plan is a table; each order can become a draft
 * transaction, opened in the transaction form for the user to check and save — nothing is
 * committed from here.
 */
import { useMemo, useState } from "preact/hooks";
import { api, type Body, type Result } from "../api/client.ts";
import { ErrorNote, Field, Loading, Money, Page, Select } from "../components/ui.tsx";
import { readDecimal } from "../lib/decimal.ts";
import { sum } from "../lib/exact.ts";
import { formatDecimal, formatPercent, fractionToPercent, percentToFraction } from "../lib/format.ts";
import { addCatalogs, msg, t } from "../lib/i18n.ts";
import { LAB } from "../i18n/lab.ts";
import { Link } from "../lib/router.tsx";
import { rows, str } from "../lib/risk-format.ts";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

addCatalogs(LAB);

type Tool = "pac_allocator" | "portfolio_rebalancer";
type ComputeItem = Result<"post", "/tools/compute">["results"][number];
const TOOLS: [Tool, string][] = [["pac_allocator", msg("Monthly plan (PAC)")], ["portfolio_rebalancer", msg("Rebalance")]];

export function ToolsPage() {
  const { prefs } = useApp();
  const locale = localeOf(prefs);
  const currency = prefs.base_currency || "EUR";
  const catalog = useAsync((signal) => api.get("/tools/catalog", { signal }), []);
  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const [tool, setTool] = useState<Tool>("pac_allocator");
  const [brokerId, setBrokerId] = useState("");
  const broker = brokerId || String(brokers.data?.items[0]?.id ?? "");
  const summary = useAsync(async (signal) => broker ? api.get("/brokers/{id}/summary", { signal, path: { id: Number(broker) } }) : null, [broker]);
  const [targets, setTargets] = useState<Record<string, string>>({});
  const [amount, setAmount] = useState("");
  const [wholeUnits, setWholeUnits] = useState(true);
  const [sellToo, setSellToo] = useState(true);
  const [result, setResult] = useState<ComputeItem | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const holdings = summary.data?.holdings ?? [];
  const names = useMemo(() => new Map(holdings.map((h) => [String(h.asset_id), h.asset_name])), [holdings]);
  const cash = summary.data?.cash_balances.find((c) => c.code === currency)?.amount ?? "0";
  const weights = holdings.map((h) => {
    const typed = readDecimal(targets[h.asset_id] ?? "", locale);
    return { key: String(h.asset_id), percent: typed.ok ? typed.value : null };
  });
  const totalPercent = sum(weights.map((w) => w.percent ?? "0"));

  const compute = async (e: Event) => {
    e.preventDefault();
    setError(null); setResult(null);
    const entry = catalog.data?.items.find((i) => i.tool_code === tool);
    if (!entry) { setError(new Error(t("This tool is not available."))); return; }
    const typedAmount = tool === "pac_allocator" ? readDecimal(amount, locale) : { ok: true as const, value: cash };
    if (!typedAmount.ok) { setError(new Error(typedAmount.message)); return; }
    const positions = weights.map((w) => ({ key: w.key, target_weight: percentToFraction(w.percent ?? "0") ?? "0" }));
    const parameters = tool === "pac_allocator"
      ? { budget: { code: currency, amount: typedAmount.value }, positions, whole_units: wholeUnits }
      : { cash: { code: currency, amount: typedAmount.value.startsWith("-") ? "0" : typedAmount.value }, positions, mode: sellToo ? "buy_and_sell" : "buy_only", whole_units: wholeUnits };
    const body: Body<"post", "/tools/compute"> = {
      request_id: crypto.randomUUID(),
      items: [{
        correlation_id: "plan", tool_code: entry.tool_code, contract_version: entry.contract_version,
        implementation_version: entry.implementation_version, schema_fingerprint: entry.schema_fingerprint,
        parameters, positions_from: { broker_ids: [Number(broker)] },
      }],
    };
    setBusy(true);
    try {
      setResult((await api.post("/tools/compute", { body })).results[0] ?? null);
    } catch (err) { setError(err); } finally { setBusy(false); }
  };

  const out = result?.status === "success" ? result.result : null;
  const failure = result && result.status !== "success" ? result.error : null;
  const draftHref = (key: string, side: string, quantity: string, amount: string) => {
    const q = new URLSearchParams({ draft: side === "sell" ? "SELL" : "BUY", broker_id: broker, asset_id: key, quantity, amount, currency });
    return `/transactions?${q}`;
  };

  return (
    <Page title={t("Tools")}>
      <ErrorNote error={catalog.error ?? brokers.error ?? summary.error} />
      <div class="segmented" role="group" aria-label={t("Tool")}>
        {TOOLS.map(([code, label]) => (
          <button key={code} type="button" aria-pressed={tool === code} class={tool === code ? "on" : ""} onClick={() => { setTool(code); setResult(null); }}>{t(label)}</button>
        ))}
      </div>
      <form class="card form" onSubmit={compute} aria-label={t(TOOLS.find(([c]) => c === tool)![1])}>
        <p class="muted">{tool === "pac_allocator"
          ? t("Enter the amount to invest and a target share for each holding: the plan says what to buy so the portfolio moves towards the targets.")
          : t("Enter a target share for each holding: the plan lists the trades that bring the broker's holdings and cash to the targets.")}</p>
        <div class="row">
          <Field label={t("Broker")}>{(id) => <Select id={id} value={broker} options={(brokers.data?.items ?? []).map((b) => ({ value: String(b.id), label: b.name }))} onChange={(v) => { setBrokerId(v); setResult(null); }} />}</Field>
          {tool === "pac_allocator"
            ? <Field label={t("Amount to invest ({currency})", { currency })}>{(id) => <input id={id} inputMode="decimal" value={amount} onInput={(e) => setAmount((e.target as HTMLInputElement).value)} required />}</Field>
            : <p>{t("Cash")}: <Money amount={cash} currency={currency} /></p>}
          <label class="check"><input type="checkbox" checked={wholeUnits} onChange={(e) => setWholeUnits((e.target as HTMLInputElement).checked)} /> {t("Whole units only")}</label>
          {tool === "portfolio_rebalancer" && <label class="check"><input type="checkbox" checked={sellToo} onChange={(e) => setSellToo((e.target as HTMLInputElement).checked)} /> {t("Sell overweight holdings too")}</label>}
        </div>
        {summary.loading && !summary.data && <Loading />}
        {summary.data && holdings.length === 0 && <p class="muted">{t("No open positions.")}</p>}
        {holdings.length > 0 && (
          <div class="table-wrap">
            <table class="table compact" data-testid="tool-targets">
              <thead><tr><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Target share (%)")}</th></tr></thead>
              <tbody>{holdings.map((h) => (
                <tr key={h.asset_id}>
                  <th scope="row"><label for={`target-${h.asset_id}`}>{h.asset_name}</label></th>
                  <td class="num"><input id={`target-${h.asset_id}`} inputMode="decimal" size={6} value={targets[h.asset_id] ?? ""}
                    onInput={(e) => setTargets((x) => ({ ...x, [h.asset_id]: (e.target as HTMLInputElement).value }))} /></td>
                </tr>
              ))}</tbody>
              <tfoot><tr><th scope="row">{t("Total")}</th><td class="num" data-testid="targets-total">{formatPercent(totalPercent, locale, { signed: false })}</td></tr></tfoot>
            </table>
          </div>
        )}
        <button type="submit" class="primary" disabled={busy || holdings.length === 0}>{busy ? t("Computing…") : t("Compute the plan")}</button>
      </form>
      <ErrorNote error={error} title={t("The plan could not be computed.")} />
      {failure && (
        <div class="note error" role="alert" data-testid="tool-error">
          <strong>{failure.code}</strong>{failure.issues.length > 0 && <ul>{failure.issues.map((i, n) => <li key={n}><code>{i.code}</code> {i.path.join(".")}</li>)}</ul>}
        </div>
      )}
      {out != null && (
        <section class="card" aria-labelledby="h-plan">
          <h2 id="h-plan">{t("Plan")}</h2>
          {rows(out, "orders").length === 0 ? <p class="muted">{t("Nothing to trade.")}</p> : (
            <div class="table-wrap">
              <table class="table compact" data-testid="tool-orders">
                <thead><tr><th scope="col">{t("Asset")}</th><th scope="col">{t("Side")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Amount")}</th><th scope="col"><span class="sr-only">{t("Actions")}</span></th></tr></thead>
                <tbody>{rows(out, "orders").map((o) => {
                  const key = str(o, "key") ?? "", side = str(o, "side") ?? "buy", q = str(o, "quantity") ?? "0", a = str(o, "amount") ?? "0";
                  return (
                    <tr key={key} data-testid={`order-${key}`}>
                      <th scope="row">{names.get(key) ?? key}</th>
                      <td>{side === "sell" ? t("Sell") : t("Buy")}</td>
                      <td class="num" data-col="quantity">{formatDecimal(q, locale)}</td>
                      <td class="num" data-col="amount"><Money amount={a} currency={currency} /></td>
                      <td><Link href={draftHref(key, side, q, a)} class="button">{t("Draft transaction")}</Link></td>
                    </tr>
                  );
                })}</tbody>
              </table>
            </div>
          )}
          <p data-testid="tool-cash-after">{t("Cash left")}: <Money amount={str(out, "cash_left") ?? str(out, "cash_after")} currency={currency} /></p>
          <details>
            <summary>{t("Shares after the plan")}</summary>
            <table class="table compact">
              <tbody>{rows(out, "weights_after").map((w) => (
                <tr key={String(w.key)}><th scope="row">{names.get(String(w.key)) ?? String(w.key)}</th><td class="num">{formatPercent(fractionToPercent(str(w, "weight")), locale, { signed: false })}</td></tr>
              ))}</tbody>
            </table>
          </details>
          <p class="muted small">{t("A draft opens the transaction form filled in: check the date, the price and the fees before saving.")}</p>
        </section>
      )}
    </Page>
  );
}
