/**
 * Web app benchmark: starts the real server as `npm start` would and prints
 *   1. the first-load JavaScript and CSS of the app (what the browser fetches for any page), raw
 *      and gzipped at level 6 (target: JS under 120 KB gzipped);
 *   2. with Debian's chromium present, page loads on the 20,000-transaction benchmark portfolio
 *      (bench/portfolio-dataset.ts seeded through the API): time from navigation until the
 *      dashboard shows the net worth (cold report, then warm), and until the transactions page
 *      shows its row count (target: under 1 s).
 *
 *   bun bench/web.ts            # part of `npm run bench`
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildLedger, buildMarketData, type Post, seedDataset } from "./portfolio-dataset.ts";
import { startBenchServer } from "./server.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const N = Number(process.env.BENCH_WEB_TRANSACTIONS ?? 20_000);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-web-"));
const { child, base } = await startBenchServer(dataDir);
const origin = base.replace(/\/api\/v1$/, "");
try {
  // 1. First-load assets, as a browser would fetch them for "/".
  const t0 = performance.now();
  const html = await (await fetch(`${origin}/`)).text();
  const firstHtmlMs = performance.now() - t0;
  const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  let js = 0, jsGz = 0, css = 0, cssGz = 0, wire = 0;
  for (const path of assets) {
    const bytes = new Uint8Array(await (await fetch(origin + path)).arrayBuffer());
    const gz = Bun.gzipSync(bytes, { level: 6 }).length;
    if (path.endsWith(".js")) { js += bytes.length; jsGz += gz; } else { css += bytes.length; cssGz += gz; }
    // What a browser that accepts gzip actually downloads (the server precompresses the chunks).
    const sent = await fetch(origin + path, { headers: { "accept-encoding": "gzip" }, decompress: false } as RequestInit);
    wire += (await sent.arrayBuffer()).byteLength;
  }
  console.log(`web first load: JS ${kb(js)} (${kb(jsGz)} gzipped, target < 120 KB), CSS ${kb(css)} (${kb(cssGz)} gzipped), ` +
    `${assets.length} files, ${kb(wire)} on the wire with gzip; first "/" answered in ${firstHtmlMs.toFixed(0)} ms (includes bundling the app)`);

  // 2. Page loads in a real browser on the benchmark portfolio.
  if (!existsSync(CHROMIUM)) {
    console.log(`web page loads: skipped (no chromium at ${CHROMIUM}; apt-get install -y chromium)`);
  } else {
    const json = { "content-type": "application/json" };
    await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
    const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
    const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
    const post: Post = async (path, body, expect = 200) => {
      const res = await fetch(`${base}${path}`, { method: "POST", headers: { ...json, cookie }, body: JSON.stringify(body) });
      if (res.status !== expect) throw new Error(`POST ${path}: ${res.status} ${(await res.text()).slice(0, 500)}`);
      return res.json();
    };
    const market = buildMarketData();
    const seed = await seedDataset(post, market, buildLedger(market, N));
    console.log(`web page loads: ${N.toLocaleString("en")} transactions seeded in ${(seed.ms.total / 1000).toFixed(1)} s`);
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: "en-US" });
      const [name, value] = cookie.split("=");
      await context.addCookies([{ name: name!, value: value!, url: origin }]);
      const page = await context.newPage();
      const load = async (label: string, path: string, ready: () => Promise<unknown>) => {
        const t = performance.now();
        await page.goto(origin + path);
        await ready();
        const ms = performance.now() - t;
        console.log(`  ${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms${ms < 1000 ? "" : "  (over the 1 s target)"}`);
      };
      const netWorth = () => page.getByTestId("net-worth").locator(".money").waitFor({ timeout: 120_000 });
      {
        // Cold: the page's layout (skeletons) shows before the engine's report arrives.
        const t = performance.now();
        await page.goto(origin + "/");
        await page.getByTestId("net-worth").waitFor({ timeout: 60_000 });
        const layout = performance.now() - t;
        await netWorth();
        const full = performance.now() - t;
        console.log(`  ${"dashboard, cold: layout shown".padEnd(34)} ${layout.toFixed(0).padStart(6)} ms${layout < 1000 ? "" : "  (over the 1 s target)"}`);
        console.log(`  ${"dashboard, cold: figures shown".padEnd(34)} ${full.toFixed(0).padStart(6)} ms  (the portfolio engine's time)`);
      }
      await load("dashboard, warm (report cached)", "/", netWorth);
      await load("transactions, first rows shown", "/transactions", () => page.locator(".vbody [role=row]").first().waitFor({ timeout: 60_000 }));
      await load("transactions, all rows loaded", "/transactions", () => page.getByText(/^\s*[\d,]+ transactions\s*$/).waitFor({ timeout: 60_000 }));
      await load("brokers, cards shown", "/brokers", () => page.locator(".broker-card").first().waitFor());
      await load("brokers, every balance shown", "/brokers", () => page.waitForFunction(() => document.querySelectorAll(".broker-card .balances").length === document.querySelectorAll(".broker-card").length && document.querySelectorAll(".broker-card").length > 0, undefined, { timeout: 60_000 }));
      await load("assets", "/assets", () => page.getByRole("table").waitFor());
    } finally {
      await browser.close();
    }
  }
} finally {
  child.kill();
  await child.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
