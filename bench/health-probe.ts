/**
 * Times `GET /system/health` every 25 ms from a process of its own, so nothing the benchmark does
 * counts as the server's latency (Bun's fetch sends bodies and decompresses answers on one HTTP
 * thread per process: a 4.5 MB upload or a 26 MB answer there would delay the probe's requests
 * too). Run as `bun bench/health-probe.ts <base>`; it stops when its stdin closes and prints its
 * samples as JSON, each `{at, ms}` with `at` an epoch time in ms.
 */
const base = process.argv[2];
if (!base) throw new Error("usage: bun bench/health-probe.ts <api base url>");
const samples: { at: number; ms: number }[] = [];
let stopped = false;
void (async () => {
  for await (const _ of Bun.stdin.stream());
  stopped = true;
})();
while (!stopped) {
  const at = performance.timeOrigin + performance.now();
  await (await fetch(`${base}/system/health`)).arrayBuffer();
  samples.push({ at, ms: performance.timeOrigin + performance.now() - at });
  await Bun.sleep(25);
}
console.log(JSON.stringify(samples));
export {};
