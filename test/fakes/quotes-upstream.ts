/**
 * The local fake upstream of the `fakequotes` test plugin: per-symbol quotes, history, events and
 * search results set by the test; an optional delay and forced failures; and the counts a test
 * needs to prove behaviour (hits per path, the most requests ever in flight at once).
 */
export interface FakeQuote {
  currency: string;
  date: string;
  price: string;
}

export interface QuotesUpstream {
  readonly url: string;
  quotes: Map<string, FakeQuote>;
  history: Map<string, { date: string; open?: string; high?: string; low?: string; close: string; volume?: string }[]>;
  events: Map<string, { date: string; type: string; value: string; currency?: string }[]>;
  searchResults: { identifier: string; name: string; currency?: string }[];
  /** Milliseconds each answer waits. */
  delayMs: number;
  /** Symbol → HTTP status to answer instead (e.g. 500, 429). */
  failures: Map<string, number>;
  hits: Map<string, number>;
  maxInFlight: number;
  stop(): void;
}

export function startQuotesUpstream(): QuotesUpstream {
  let inFlight = 0;
  const state = {
    quotes: new Map(), history: new Map(), events: new Map(), searchResults: [] as QuotesUpstream["searchResults"],
    delayMs: 0, failures: new Map<string, number>(), hits: new Map<string, number>(), maxInFlight: 0,
  };
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const [, kind, raw] = url.pathname.split("/");
      const symbol = decodeURIComponent(raw ?? "");
      const key = `${kind}:${symbol}`;
      state.hits.set(key, (state.hits.get(key) ?? 0) + 1);
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      try {
        if (state.delayMs) await Bun.sleep(state.delayMs);
        const failure = state.failures.get(symbol);
        if (failure) return new Response(JSON.stringify({ error: "forced" }), { status: failure });
        const from = url.searchParams.get("from") ?? "0000-00-00";
        const to = url.searchParams.get("to") ?? "9999-99-99";
        const inRange = <T extends { date: string }>(rows: T[] = []) => rows.filter((r) => r.date >= from && r.date <= to);
        switch (kind) {
          case "quote": {
            const q = state.quotes.get(symbol);
            return q ? Response.json(q) : new Response(JSON.stringify({ error: "unknown symbol" }), { status: 404 });
          }
          case "history": return Response.json(inRange(state.history.get(symbol)));
          case "events": return Response.json(inRange(state.events.get(symbol)));
          case "search": return Response.json(state.searchResults);
          default: return new Response("not found", { status: 404 });
        }
      } finally {
        inFlight--;
      }
    },
  });
  return Object.assign(state, { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }) as QuotesUpstream;
}
