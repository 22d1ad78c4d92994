/**
 * Page-speed benchmark of the web app (docs/web.md "Page speed"): starts the real server as
 * `npm start` would, seeds the 20,000-transaction benchmark ledger through the API (the data set
 * and seeding of bench/portfolio-dataset.ts, as bench/portfolio.ts does), and drives Debian's
 * Chromium (the e2e tests' launcher, test/helpers/browser.ts) to each page: dashboard, holdings,
 * performance, income, realised gains, risk, tools, transactions and a broker's page. For each it
 * prints the time from navigation until the page's content is visible, on the first visit (cold:
 * the server computes) and on the second (warm: what a returning user waits), with the warm
 * figure's ratio to the 1 s target (< 1 meets it). The load average is printed before and after:
 * other work on the machine slows every figure.
 *
 *   bun bench/web-pages.ts                        # part of `npm run bench`
 *   BENCH_WEB_TRANSACTIONS=2000 bun bench/web-pages.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { buildLedger, buildMarketData, seedDataset } from "./portfolio-dataset.ts";
import { benchSession, startBenchServer } from "./server.ts";
import { DESKTOP, launchChromium } from "../test/helpers/browser.ts";

const N = Number(process.env.BENCH_WEB_TRANSACTIONS ?? 20_000);
const TARGET_MS = 1_000;
/** How long a page may take before the bench gives up on it (a cold report on a busy machine). */
const GIVE_UP_MS = 180_000;
const loadAvg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/** Each page and what shows that its content is there (the figures, not the loading skeleton). */
function pages(brokerId: number): { name: string; path: string; content: string }[] {
  return [
    { name: "dashboard", path: "/", content: '[data-testid="net-worth"] .money' },
    { name: "holdings", path: "/holdings", content: '[data-testid="holdings-total"] [data-col="value"] .money' },
    { name: "performance", path: "/performance", content: 'tr[data-testid^="period-2"] [data-col="twr"] .pct' },
    { name: "income", path: "/income", content: '[data-testid="income-total"] .money' },
    { name: "realised gains", path: "/gains", content: '[data-testid^="gains-year-"]' },
    { name: "risk (parameters)", path: "/risk", content: 'form button[type="submit"]:not([disabled])' },
    { name: "tools (targets)", path: "/tools", content: '[data-testid="tool-targets"] tbody tr' },
    { name: "transactions (first rows)", path: "/transactions", content: ".vbody .vrow[data-id]" },
    { name: "broker page", path: `/brokers/${brokerId}`, content: 'section[aria-labelledby="h-hold"] tbody tr' },
  ];
}

/**
 * Time from navigation until `content` is visible; then waits until the page's requests are all
 * answered (the transactions page goes on loading rows), so the next visit does not queue behind them.
 */
async function visit(page: Page, url: string, content: string): Promise<number> {
  const t = performance.now();
  await page.goto(url);
  await page.locator(content).first().waitFor({ state: "visible", timeout: GIVE_UP_MS });
  const ms = performance.now() - t;
  await page.waitForLoadState("networkidle", { timeout: GIVE_UP_MS });
  return ms;
}

const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-web-pages-"));
const { child, base } = await startBenchServer(dataDir);
const origin = base.replace(/\/api\/v1$/, "");
try {
  const { headers, cookie, post } = await benchSession(base);
  const market = buildMarketData();
  const seed = await seedDataset(post, market, buildLedger(market, N));
  const brokers = await (await fetch(`${base}/brokers`, { headers })).json() as { items: { id: number }[] };
  console.log(`bun ${Bun.version}, ${navigator.hardwareConcurrency} cores, server and browser on the same machine; ` +
    `${N.toLocaleString("en")} transactions seeded in ${(seed.ms.total / 1000).toFixed(1)} s; load average ${loadAvg()}`);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-US", timezoneId: "UTC" });
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name: name!, value: value!, url: origin }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The app's code in the browser's cache and the server's bundle built, so the first page is not charged for them.
    await page.goto(origin + "/settings");
    await page.getByRole("heading", { name: "Settings", exact: true }).waitFor({ timeout: GIVE_UP_MS });
    console.log(`${"page".padEnd(28)} ${"first visit".padStart(12)} ${"second visit".padStart(13)}  target ${TARGET_MS} ms`);
    for (const p of pages(brokers.items[0]!.id)) {
      const cold = await visit(page, origin + p.path, p.content);
      const warm = await visit(page, origin + p.path, p.content);
      const ratio = warm / TARGET_MS;
      console.log(`${p.name.padEnd(28)} ${`${cold.toFixed(0)} ms`.padStart(12)} ${`${warm.toFixed(0)} ms`.padStart(13)}  ${ratio.toFixed(2)}×${ratio < 1 ? "" : " OVER"}`);
    }
    if (errors.length) console.log(`page errors: ${errors.join("; ")}`);
  } finally {
    await browser.close();
  }
  console.log(`load average after: ${loadAvg()}`);
} finally {
  child.kill();
  await child.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
