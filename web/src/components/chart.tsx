/**
 * A time-series line chart on uPlot (canvas): 10 years of daily points × several series draw in
 * a few milliseconds. Values are numbers only for geometry; labels use the page's formatter.
 */
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { t } from "../lib/i18n.ts";

/** A line; `markers` draws only a dot at each non-null value (signal crossovers, for instance). */
export interface ChartSeries { label: string; values: (number | null)[]; color: string; dash?: boolean; markers?: boolean }

export function TimeChart(props: {
  title: string;
  /** ISO dates, ascending. */
  dates: string[];
  series: ChartSeries[];
  height?: number;
  /** Formats a y value for the axis and the legend (privacy mode passes a mask). */
  format(v: number): string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || props.dates.length === 0) return;
    const xs = props.dates.map((d) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / 1000);
    const fmt = props.format;
    const styles = getComputedStyle(document.documentElement);
    const axisColor = styles.getPropertyValue("--muted").trim() || "#666";
    const gridColor = styles.getPropertyValue("--border").trim() || "#ddd";
    // Canvas strokes need real colours: resolve "var(--chart-1)" from the current theme.
    const color = (c: string) => c.startsWith("var(") ? styles.getPropertyValue(c.slice(4, -1)).trim() || "#1f5fbf" : c;
    const opts: uPlot.Options = {
      width: Math.max(280, el.clientWidth),
      height: props.height ?? 280,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      // A single day would otherwise be stretched over years; show a month around it instead.
      scales: xs.length === 1 ? { x: { time: true, auto: false, range: [xs[0]! - 15 * 86400, xs[0]! + 15 * 86400] } } : {},
      series: [
        { label: t("Date"), value: (_u, v) => v == null ? "—" : new Date(v * 1000).toISOString().slice(0, 10) },
        ...props.series.map((s): uPlot.Series => ({
          label: s.label, stroke: color(s.color), width: 1.5, dash: s.dash ? [6, 4] : undefined, spanGaps: false,
          value: (_u: uPlot, v: number | null) => v == null ? "—" : fmt(v),
          ...(s.markers ? { paths: () => null, points: { show: true, size: 11, width: 2, stroke: color(s.color), fill: color(s.color) } } : {}),
        })),
      ],
      axes: [
        { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } },
        { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor }, size: 80,
          values: (_u, splits) => splits.map((v) => fmt(v)) },
      ],
      legend: { live: true },
      cursor: { drag: { x: true, y: false } },
    };
    const plot = new uPlot(opts, [xs, ...props.series.map((s) => s.values)] as uPlot.AlignedData, el);
    const ro = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: props.height ?? 280 }));
    ro.observe(el);
    return () => { ro.disconnect(); plot.destroy(); };
  }, [props.dates, props.series, props.format]);
  if (props.dates.length === 0) return <p class="muted">{t("No data for this period.")}</p>;
  return <figure class="chart" aria-label={props.title} role="img"><div ref={box} /></figure>;
}
