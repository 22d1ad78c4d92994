/**
 * The scaffolding every fake upstream shares: a server on a free port of 127.0.0.1 that logs each
 * request, waits `delayMs` when asked, and lets `route` answer with the current behaviour (which a
 * test changes with `behave()` and clears with `reset()`).
 */
export type Handler = (req: Request) => Response | Promise<Response>;

export interface UpstreamBehaviour {
  delayMs?: number;
  /** Replaces every answer (the fakes' `*Failures` handlers). */
  handler?: Handler;
}

export interface LogEntry {
  path: string;
  query: Record<string, string>;
}

export interface ScriptedUpstream<B extends UpstreamBehaviour, E extends LogEntry = LogEntry> {
  readonly log: E[];
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  behave(behaviour: B): void;
  reset(): void;
  stop(): Promise<void>;
}

export function startScriptedUpstream<B extends UpstreamBehaviour, E extends LogEntry = LogEntry>(
  route: (req: Request, url: URL, behaviour: B) => Response | Promise<Response>,
  logEntry: (url: URL) => E = (url) => ({ path: url.pathname, query: Object.fromEntries(url.searchParams) }) as E,
): ScriptedUpstream<B, E> {
  const log: E[] = [];
  let behaviour = {} as B;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      log.push(logEntry(url));
      if (behaviour.delayMs) await Bun.sleep(behaviour.delayMs);
      return route(req, url, behaviour);
    },
  });
  return {
    log,
    url: `http://127.0.0.1:${server.port}`,
    behave(b) {
      behaviour = { ...behaviour, ...b };
    },
    reset() {
      behaviour = {} as B;
      log.length = 0;
    },
    async stop() {
      await server.stop(true);
    },
  };
}
