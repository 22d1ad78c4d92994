/**
 * The local fake upstream of the `fakefx` / `fakefx2` test plugins: `GET /rates/<BASE>/<QUOTE>?from=&to=`
 * answers the rates the test set for that pair (as quoted: 1 BASE = rate QUOTE), filtered to the
 * range; forced HTTP failures per pair; hit counts per pair.
 */
export interface FxUpstream {
  readonly url: string;
  /** `BASE-QUOTE` → rates, oldest first. */
  rates: Map<string, { date: string; rate: string }[]>;
  /** `BASE-QUOTE` → HTTP status to answer instead. */
  failures: Map<string, number>;
  /** `BASE-QUOTE` → requests received. */
  hits: Map<string, number>;
  stop(): void;
}

export function startFxUpstream(): FxUpstream {
  const state = { rates: new Map<string, { date: string; rate: string }[]>(), failures: new Map<string, number>(), hits: new Map<string, number>() };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      const [, kind, base, quote] = url.pathname.split("/");
      if (kind !== "rates" || !base || !quote) return new Response("not found", { status: 404 });
      const key = `${base}-${quote}`;
      state.hits.set(key, (state.hits.get(key) ?? 0) + 1);
      const failure = state.failures.get(key);
      if (failure) return Response.json({ error: "forced" }, { status: failure });
      const from = url.searchParams.get("from") ?? "0000-00-00";
      const to = url.searchParams.get("to") ?? "9999-99-99";
      return Response.json((state.rates.get(key) ?? []).filter((r) => r.date >= from && r.date <= to));
    },
  });
  return { ...state, url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}
