/**
 * A local fake OCI registry shaped like ghcr.io for the container-image check:
 * - `HEAD /v2/<repo>/manifests/<tag>` without a token answers 401 with
 *   `WWW-Authenticate: Bearer realm="<base>/token",service="<host>",scope="repository:<repo>:pull"`;
 * - `GET /token?scope=...&service=...` answers `{"token": "...", "access_token": "..."}`;
 * - the HEAD with `Authorization: Bearer <token>` answers 200 for published tags, 404 otherwise.
 * Each step can be overridden per test (`fake.behave({...})`, undone by `fake.reset()`) to
 * produce every deviation; every request is logged.
 */

export interface RegistryRequest {
  accept: string | null;
  authorization: string | null;
  method: string;
  path: string;
  query: Record<string, string>;
}

type Handler = (req: Request, fake: FakeRegistry) => Response | Promise<Response>;

export interface RegistryBehaviour {
  /** The anonymous manifest HEAD (default: 401 with `challenge`). */
  anonymous?: Handler;
  /** The authenticated manifest HEAD (default: 200 for published tags, 404 otherwise, 401 for a wrong token). */
  authenticated?: Handler;
  /** The WWW-Authenticate value of the default 401; null sends a 401 without the header. */
  challenge?: string | null;
  /** Delay before any answer, in milliseconds. */
  delayMs?: number;
  /** The token endpoint (default: `{token, access_token}` with `issuedToken`). */
  token?: Handler;
}

export interface FakeRegistry {
  /** Challenge exactly as ghcr.io sends it for this fake. */
  readonly challenge: string;
  /** `127.0.0.1:<port>`, the service name and the host of image references. */
  readonly host: string;
  readonly issuedToken: string;
  readonly log: RegistryRequest[];
  readonly published: Set<string>;
  readonly repository: string;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  behave(behaviour: RegistryBehaviour): void;
  /** Requests the fake received on exactly `path` (for instance "/token"). */
  requests(path: string): RegistryRequest[];
  /** Clears the log and overrides; keeps the published tags. */
  reset(): void;
  stop(): Promise<void>;
}

export function tokenJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function startFakeRegistry(opts: { published?: string[]; repository?: string } = {}): FakeRegistry {
  const repository = opts.repository ?? "acme/tracker";
  const issuedToken = "djE6YWNtZS90cmFja2VyOjE3MDAwMDAwMDA=";
  const log: RegistryRequest[] = [];
  let behaviour: RegistryBehaviour = {};
  const manifestPath = new RegExp(`^/v2/${repository.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/manifests/([^/]+)$`);

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const authorization = req.headers.get("authorization");
      log.push({
        accept: req.headers.get("accept"),
        authorization,
        method: req.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
      });
      if (behaviour.delayMs) await Bun.sleep(behaviour.delayMs);
      if (url.pathname === "/token" && req.method === "GET") return (behaviour.token ?? defaultToken)(req, fake);
      const manifest = manifestPath.exec(url.pathname);
      if (!manifest || (req.method !== "HEAD" && req.method !== "GET")) return new Response(null, { status: 404 });
      if (!authorization) return (behaviour.anonymous ?? defaultAnonymous)(req, fake);
      return (behaviour.authenticated ?? defaultAuthenticated)(req, fake);
    },
  });

  const host = `127.0.0.1:${server.port}`;
  const url = `http://${host}`;
  const fake: FakeRegistry = {
    challenge: `Bearer realm="${url}/token",service="${host}",scope="repository:${repository}:pull"`,
    host,
    issuedToken,
    log,
    published: new Set(opts.published ?? []),
    repository,
    url,
    behave(b) { behaviour = { ...behaviour, ...b }; },
    requests: (path) => log.filter((r) => r.path === path),
    reset() { behaviour = {}; log.length = 0; },
    async stop() { await server.stop(true); },
  };

  function defaultAnonymous(): Response {
    const challenge = behaviour.challenge === undefined ? fake.challenge : behaviour.challenge;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (challenge !== null) headers["www-authenticate"] = challenge;
    return new Response(null, { status: 401, headers });
  }

  function defaultToken(): Response {
    return tokenJson({ token: issuedToken, access_token: issuedToken, expires_in: 300 });
  }

  function defaultAuthenticated(req: Request): Response {
    if (req.headers.get("authorization") !== `Bearer ${issuedToken}`) return defaultAnonymous();
    const tag = manifestPath.exec(new URL(req.url).pathname)![1]!;
    if (!fake.published.has(tag)) return new Response(null, { status: 404 });
    return new Response(null, {
      status: 200,
      headers: {
        "content-type": "application/vnd.oci.image.index.v1+json",
        "docker-content-digest": `sha256:${"0".repeat(64)}`,
      },
    });
  }

  return fake;
}
