/**
 * Broker PDF batch benchmark: starts the real server (as `npm start` would) and uploads 100 one-page
 * Trade Republic contract notes (generated with the fixture writer, each of its own day and order, so
 * none is a twin of another) as one upload of 100 `file` parts, then times
 * `POST /brokers/import/files/{id}/parse` end to end (target: under 10 s on two cores). Meanwhile
 * `GET /system/health` is timed every 25 ms from a process of its own (bench/health-probe.ts; target:
 * every answer under 20 ms) and the server's resident memory is sampled every 50 ms, its peak
 * (VmHWM, worker threads included) reported too (target: under 400 MB).
 *
 *   bun bench/pdf.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePdf } from "../test/fixtures/pdf/make-pdf.ts";
import { now, reportHealth, startHealthProbe } from "./health-probe.ts";
import { memMb, resetPeak, ROOT, startBenchServer } from "./server.ts";

const DOCUMENTS = 100;
const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const german = (d: Date) => `${String(d.getUTCDate()).padStart(2, "0")}.${String(d.getUTCMonth() + 1).padStart(2, "0")}.${d.getUTCFullYear()}`;

/** The fixture's contract note, moved to its own trade day (settled two days later) and order. */
function contractNote(template: string, i: number): Uint8Array {
  const trade = new Date(Date.UTC(2024, 0, 2) + i * 3 * 86_400_000);
  const settled = new Date(trade.getTime() + 2 * 86_400_000);
  const order = `b${String(i).padStart(3, "0")}-c3d4`;
  return makePdf(template.replaceAll("12.03.2025", german(trade)).replaceAll("14.03.2025", german(settled)).replaceAll("a1b2-c3d4", order));
}

const template = readFileSync(join(ROOT, "test", "fixtures", "pdf", "traderepublic", "kauf-de.txt"), "utf8");
const pdfs = Array.from({ length: DOCUMENTS }, (_, i) => contractNote(template, i));

const dataDir = mkdtempSync(join(tmpdir(), "pt-bench-pdf-"));
const { child, base } = await startBenchServer(dataDir);
try {
  const json = { "content-type": "application/json" };
  await fetch(`${base}/auth/register`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "Bench-pass1" }) });
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ username: "bench", password: "Bench-pass1" }) });
  const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  const brokers = await fetch(`${base}/brokers`, { method: "POST", headers: { ...json, cookie }, body: JSON.stringify([{ name: "PDF" }]) });
  const broker = (await brokers.json()).results[0].broker_id as number;

  const probe = await startHealthProbe(base);
  const windows = probe.windows;
  const before = memMb(child.pid);
  const peakReset = resetPeak(child.pid);
  let sampledPeak = before.rss;
  const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, memMb(child.pid).rss)), 50);

  const form = new FormData();
  pdfs.forEach((pdf, i) => form.append("file", new File([pdf as Uint8Array<ArrayBuffer>], `abrechnung-${String(i + 1).padStart(3, "0")}.pdf`, { type: "application/pdf" })));
  const size = pdfs.reduce((n, p) => n + p.byteLength, 0);
  const tu = now();
  const up = await fetch(`${base}/brokers/import/upload?broker_id=${broker}`, { method: "POST", headers: { cookie }, body: form });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const fileId = (await up.json()).file_id as string;
  windows.push({ label: "upload", from: tu, to: now() });
  console.log(`${DOCUMENTS} contract notes, ${(size / 1024).toFixed(0)} KiB in one upload: ${(now() - tu).toFixed(0)} ms (detection reads the first document's text)`);

  for (const run of [1, 2]) {
    const t0 = now();
    const res = await fetch(`${base}/brokers/import/files/${fileId}/parse`, {
      method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ plugin_code: "auto", broker_id: broker }),
    });
    const body = await res.json();
    const elapsed = now() - t0;
    windows.push({ label: `parse run ${run}`, from: t0, to: t0 + elapsed });
    if (res.status !== 200) throw new Error(`parse: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    console.log(`parse run ${run}: ${elapsed.toFixed(0)} ms end to end (target < 10000), ${body.detected_format}, ${body.transactions.length} rows, `
      + `${body.skipped_rows.length} documents left out; load ${loadavg()}`);
  }
  clearInterval(sampler);
  const after = memMb(child.pid);
  console.log(`server RSS: ${before.rss.toFixed(0)} MB before, peak ${(peakReset ? after.hwm : sampledPeak).toFixed(0)} MB `
    + `(${peakReset ? "VmHWM" : "sampled every 50 ms"}; target < 400), ${after.rss.toFixed(0)} MB after`);

  reportHealth(await probe.stop(), windows);
} finally {
  child.kill("SIGTERM");
  await child.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
