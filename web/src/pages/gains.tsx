/**
 * Realised gains per tax year: every disposal (SELL) with the FIFO lots it closed and, beside them,
 * the average cost (POST /portfolio/realized-gains, in the user's base currency), totals per year,
 * and a CSV download of the same figures.
 */
import { Component, Fragment } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, type Result } from "../api/client.ts";
import { ErrorNote, Field, Loading, Money, Page, Select } from "../components/ui.tsx";
import { formatDate, formatDecimal, MASK } from "../lib/format.ts";
import { t } from "../lib/i18n.ts";
import { Link } from "../lib/router.tsx";
import { localeOf, useApp } from "../lib/store.ts";
import { useAsync } from "../lib/use-async.ts";

type Gains = Result<"post", "/portfolio/realized-gains">;
type Disposal = Gains["disposals"][number];
type Brokers = Result<"get", "/brokers">["items"];

/**
 * Sales rendered per chunk: the totals and the first chunk in the first paint, one more chunk after
 * each paint (thousands of sales in one render kept the page blank for seconds, docs/web.md "Page speed").
 */
const CHUNK = 100;

export function GainsPage() {
  const { prefs, privacy } = useApp();
  const locale = localeOf(prefs);
  const currency = prefs.base_currency || "EUR";
  const [year, setYear] = useState<number | "">("");
  const [open, setOpen] = useState<number | null>(null);
  // Every year's totals (for the year list and the summary table), then the chosen year's disposals.
  const all = useAsync((signal) => api.post("/portfolio/realized-gains", { signal, body: { target_currency: currency } }), [currency]);
  const chosen = useAsync(async (signal) => year === "" ? null : api.post("/portfolio/realized-gains", { signal, body: { target_currency: currency, year } }), [year, currency]);
  const brokers = useAsync((signal) => api.get("/brokers", { signal }), []);
  const brokerName = (id: number) => brokers.data?.items.find((b) => b.id === id)?.name ?? String(id);
  const data = year === "" ? all.data : chosen.data;
  const loading = year === "" ? all.loading : chosen.loading;
  const years = (all.data?.years ?? []).map((y) => y.year).reverse();
  const shown = useShown(data?.disposals);

  const download = () => {
    if (!data) return;
    const blob = new Blob([toCsv(data, brokerName)], { type: "text/csv;charset=utf-8" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `realised-gains-${year === "" ? "all-years" : year}-${data.target_currency}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };

  return (
    <Page title={t("Realised gains")} actions={data && data.disposals.length > 0 && <button type="button" onClick={download}>{t("Download CSV")}</button>}>
      <div class="toolbar">
        <Field label={t("Tax year")}>{(id) => (
          <Select id={id} value={year} placeholder={t("All years")} options={years.map((y) => ({ value: y, label: String(y) }))}
            onChange={(v) => setYear(v === "" ? "" : Number(v))} />
        )}</Field>
      </div>
      <ErrorNote error={all.error ?? chosen.error} title={t("The realised gains could not be computed.")} />
      {loading && !data && <Loading label={t("Computing the portfolio…")} />}
      {all.data && (
        <section class="card" aria-labelledby="h-years">
          <h2 id="h-years">{t("Totals per tax year")}</h2>
          <p class="muted small">{t("In {currency}. FIFO matches each sale with the oldest units bought; the average cost is the broker's weighted average cost at the sale.", { currency: all.data.target_currency })}</p>
          {all.data.years.length === 0 ? <p class="muted">{t("No sales yet.")}</p> : (
            <div class="table-wrap">
              <table class="table compact" aria-label={t("Totals per tax year")}>
                <thead><tr>
                  <th scope="col">{t("Year")}</th><th scope="col" class="num">{t("Sales")}</th><th scope="col" class="num">{t("Proceeds")}</th>
                  <th scope="col" class="num">{t("Cost (FIFO)")}</th><th scope="col" class="num">{t("Gain (FIFO)")}</th>
                  <th scope="col" class="num">{t("Cost (average)")}</th><th scope="col" class="num">{t("Gain (average)")}</th>
                </tr></thead>
                <tbody>
                  {all.data.years.slice().reverse().map((y) => (
                    <tr key={y.year} data-testid={`gains-year-${y.year}`}>
                      <th scope="row">{y.year}</th><td class="num">{y.disposals}</td>
                      <td class="num" data-col="proceeds"><Money amount={y.proceeds} currency={currency} /></td>
                      <td class="num" data-col="fifo-cost"><Money amount={y.fifo_cost} currency={currency} /></td>
                      <td class="num" data-col="fifo-gain"><Money amount={y.fifo_gain} currency={currency} signed /></td>
                      <td class="num" data-col="average-cost"><Money amount={y.average_cost} currency={currency} /></td>
                      <td class="num" data-col="average-gain"><Money amount={y.average_gain} currency={currency} signed /></td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}
      {data && data.disposals.length > 0 && (
        <section class="card" aria-labelledby="h-disposals">
          <h2 id="h-disposals">{year === "" ? t("Every sale") : t("Sales in {year}", { year })}</h2>
          <div class="table-wrap positioned">
            <table class="table compact gains" aria-label={t("Sales")}>
              <thead><tr>
                <th scope="col">{t("Date")}</th><th scope="col">{t("Asset")}</th><th scope="col" class="num">{t("Quantity")}</th>
                <th scope="col">{t("Acquired")}</th><th scope="col" class="num">{t("Proceeds")}</th>
                <th scope="col" class="num">{t("Cost (FIFO)")}</th><th scope="col" class="num">{t("Gain (FIFO)")}</th>
                <th scope="col" class="num">{t("Cost (average)")}</th><th scope="col" class="num">{t("Gain (average)")}</th>
                <th scope="col"><span class="sr-only">{t("Lots")}</span></th>
              </tr></thead>
              {Array.from({ length: Math.ceil(shown / CHUNK) }, (_, i) => (
                <SaleChunk key={i} list={data.disposals} from={i * CHUNK} open={open} setOpen={setOpen} brokers={brokers.data?.items}
                  currency={currency} locale={locale} privacy={privacy} />
              ))}
              <tfoot>
                <tr data-testid="sales-total">
                  <th scope="row" colSpan={4}>{t("Total")}</th>
                  <td class="num" data-col="proceeds"><Money amount={data.totals.proceeds} currency={currency} /></td>
                  <td class="num" data-col="fifo-cost"><Money amount={data.totals.fifo_cost} currency={currency} /></td>
                  <td class="num" data-col="fifo-gain"><Money amount={data.totals.fifo_gain} currency={currency} signed /></td>
                  <td class="num" data-col="average-cost"><Money amount={data.totals.average_cost} currency={currency} /></td>
                  <td class="num" data-col="average-gain"><Money amount={data.totals.average_gain} currency={currency} signed /></td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </div>
          {data.missing_fx_pairs.length > 0 && (
            <p class="note warning">{t("Some amounts could not be converted (missing rates for {pairs}): they show as —.", { pairs: data.missing_fx_pairs.map((p) => p.pair).join(", ") })}</p>
          )}
        </section>
      )}
    </Page>
  );
}

/** How many sales of `list` to render: one chunk more after each paint, until all of them. */
function useShown(list: readonly unknown[] | undefined): number {
  const total = list?.length ?? 0;
  const [state, setState] = useState({ list, shown: CHUNK });
  const shown = state.list === list ? Math.min(state.shown, total) : Math.min(CHUNK, total);
  useEffect(() => {
    if (shown >= total) return;
    const timer = setTimeout(() => setState({ list, shown: shown + CHUNK }), 0);
    return () => clearTimeout(timer);
  }, [list, shown, total]);
  return shown;
}

interface ChunkProps {
  brokers: Brokers | undefined;
  currency: string;
  from: number;
  list: Disposal[];
  locale: string;
  open: number | null;
  privacy: boolean;
  setOpen: (id: number | null) => void;
}

/** One chunk of sales (its own tbody), rendered again only when its inputs change. */
class SaleChunk extends Component<ChunkProps> {
  override shouldComponentUpdate(next: ChunkProps): boolean {
    const a = this.props;
    return !(a.list === next.list && a.from === next.from && a.brokers === next.brokers && a.currency === next.currency
      && a.locale === next.locale && a.privacy === next.privacy && a.setOpen === next.setOpen && inChunk(a, a.open) === inChunk(next, next.open));
  }

  override render() {
    return saleRows(this.props);
  }
}

function saleRows({ brokers, currency, from, list, locale, open, privacy, setOpen }: ChunkProps) {
  const brokerName = (id: number) => brokers?.find((b) => b.id === id)?.name ?? String(id);
  const q = (v: string) => privacy ? MASK : formatDecimal(v, locale, { maxPlaces: 8 });
  return (
    <tbody>
      {list.slice(from, from + CHUNK).map((d) => (
        <Fragment key={d.transaction_id}>
          <tr data-testid={`sale-${d.transaction_id}`}>
            <td>{formatDate(d.date, locale)}</td>
            <th scope="row"><Link href={`/assets/${d.asset_id}`}>{d.asset_name}</Link><div class="muted small">{brokerName(d.broker_id)}</div></th>
            <td class="num">{q(d.quantity)}</td>
            <td>{formatDate(d.acquired_from, locale)}{d.acquired_to !== d.acquired_from ? ` – ${formatDate(d.acquired_to, locale)}` : ""}
              <div class="muted small">{holding(d)}</div></td>
            <td class="num" data-col="proceeds"><Money amount={d.proceeds} currency={currency} /></td>
            <td class="num" data-col="fifo-cost"><Money amount={d.fifo_cost} currency={currency} /></td>
            <td class="num" data-col="fifo-gain"><Money amount={d.fifo_gain} currency={currency} signed /></td>
            <td class="num" data-col="average-cost"><Money amount={d.average_cost} currency={currency} /></td>
            <td class="num" data-col="average-gain"><Money amount={d.average_gain} currency={currency} signed /></td>
            <td><button type="button" class="ghost" aria-expanded={open === d.transaction_id} aria-label={t("Lots sold on {date}", { date: formatDate(d.date, locale) })}
              onClick={() => setOpen(open === d.transaction_id ? null : d.transaction_id)}>{t("Lots")}</button></td>
          </tr>
          {open === d.transaction_id && (
            <tr class="lots-row"><td colSpan={10}>
              <table class="table compact" aria-label={t("Lots sold on {date}", { date: formatDate(d.date, locale) })}>
                <thead><tr><th scope="col">{t("Bought")}</th><th scope="col" class="num">{t("Quantity")}</th><th scope="col" class="num">{t("Cost (FIFO)")}</th><th scope="col" class="num">{t("Days held")}</th></tr></thead>
                <tbody>{d.lots.map((l) => (
                  <tr key={l.lot_id}><td>{formatDate(l.acquisition_date, locale)}</td><td class="num">{q(l.quantity)}</td>
                    <td class="num"><Money amount={l.cost} currency={currency} /></td><td class="num">{l.holding_days}</td></tr>
                ))}</tbody>
              </table>
            </td></tr>
          )}
        </Fragment>
      ))}
    </tbody>
  );
}

/** The open sale when it is one of the chunk's (a click elsewhere leaves the chunk as it is). */
function inChunk(p: ChunkProps, open: number | null): number | null {
  if (open === null) return null;
  const i = p.list.findIndex((d) => d.transaction_id === open);
  return i >= p.from && i < p.from + CHUNK ? open : null;
}

function holding(d: Disposal): string {
  const days = d.lots.map((l) => l.holding_days);
  const min = Math.min(...days), max = Math.max(...days);
  return min === max ? t("{n} days held", { n: min }) : t("{min}–{max} days held", { min, max });
}

/** A spreadsheet-safe CSV cell: quoted when needed, and text that a spreadsheet would run as a formula starts with an apostrophe. */
function cell(v: string | number | null): string {
  if (v === null) return "";
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\n\r;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One line per lot sold (the disposal's figures on its first line), amounts as the API's decimal strings. */
export function toCsv(g: Gains, brokerName: (id: number) => string): string {
  const head = ["sale_date", "asset", "broker", "transaction_id", "quantity_sold", "proceeds", "fifo_cost", "fifo_gain", "average_cost",
    "average_gain", "currency", "lot_acquisition_date", "lot_quantity", "lot_fifo_cost", "lot_holding_days"];
  const lines = [head.join(",")];
  for (const d of g.disposals) {
    d.lots.forEach((l, i) => {
      const first = i === 0;
      lines.push([
        d.date, d.asset_name, brokerName(d.broker_id), d.transaction_id, first ? d.quantity : null, first ? d.proceeds : null,
        first ? d.fifo_cost : null, first ? d.fifo_gain : null, first ? d.average_cost : null, first ? d.average_gain : null, g.target_currency,
        l.acquisition_date, l.quantity, l.cost, l.holding_days,
      ].map(cell).join(","));
    });
  }
  return lines.join("\r\n") + "\r\n";
}
