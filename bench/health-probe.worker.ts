/**
 * Times `GET /system/health` every 25 ms in a thread of its own, so the benchmark's own work never
 * counts as the server's latency. In: `{base}` to start, `"stop"` to stop; out: `{samples}`, each
 * `{at, ms}` with `at` an epoch time in ms (timeOrigin-based, comparable across threads).
 */
const scope = globalThis as unknown as Worker;
let stopped = false;

scope.onmessage = async (event: MessageEvent<{ base: string } | "stop">) => {
  if (event.data === "stop") {
    stopped = true;
    return;
  }
  const { base } = event.data;
  const samples: { at: number; ms: number }[] = [];
  while (!stopped) {
    const at = performance.timeOrigin + performance.now();
    await (await fetch(`${base}/system/health`)).arrayBuffer();
    samples.push({ at, ms: performance.timeOrigin + performance.now() - at });
    await Bun.sleep(25);
  }
  scope.postMessage({ samples });
};

export {};
