/**
 * The browser app's files outside development: web/index.html bundled once by Bun.build
 * (minified, hashed chunk names), kept in memory raw and gzipped, and served with
 * `Vary: Accept-Encoding`. Bun's own HTML-import routes would serve the chunks uncompressed,
 * because they never pass through the API's gzip wrapper (docs/decisions.md, "Web app").
 */
import { join } from "node:path";
import { acceptsGzip } from "./gzip.ts";
import { requestPath } from "./request-url.ts";

const ENTRY = join(import.meta.dir, "../../web/index.html");
const GZIP_LEVEL = 9;
const IMMUTABLE = "public, max-age=31536000, immutable";

interface Asset {
  raw: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  type: string;
  etag: string;
}

interface Bundle {
  /** Hashed chunks by URL path ("/chunk-1a2b3c.js"). */
  files: Map<string, Asset>;
  /** index.html: every path that is not a chunk is a client route of the app. */
  index: Asset;
}

function asset(raw: Uint8Array<ArrayBuffer>, type: string, hash: string): Asset {
  return { raw, gzip: Bun.gzipSync(raw, { level: GZIP_LEVEL }), type, etag: `"${hash}"` };
}

async function build(): Promise<Bundle> {
  const result = await Bun.build({
    entrypoints: [ENTRY],
    target: "browser",
    minify: true,
    publicPath: "/",
    // Chart-heavy pages are dynamic imports: each becomes its own chunk, fetched on first visit.
    splitting: true,
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) throw new AggregateError(result.logs, "the web app did not build");
  const files = new Map<string, Asset>();
  let index: Asset | undefined;
  for (const out of result.outputs) {
    const raw = new Uint8Array(await out.arrayBuffer());
    const name = out.path.replace(/^\.\//, "");
    const made = asset(raw, out.type, out.hash ?? String(Bun.hash(raw)));
    if (name === "index.html") index = made;
    else files.set(`/${name}`, made);
  }
  if (!index) throw new Error("the web app's build has no index.html");
  return { files, index };
}

let bundle: Promise<Bundle> | undefined;

/** Builds the app on first use (about 0.3 s) and keeps the result for the life of the process. */
export function webBundle(): Promise<Bundle> {
  bundle ??= build().catch((e) => { bundle = undefined; throw e; });
  return bundle;
}

function send(request: Request, file: Asset, cacheControl: string): Response {
  const headers = new Headers({ "content-type": file.type, "cache-control": cacheControl, vary: "Accept-Encoding", etag: file.etag });
  if (request.headers.get("if-none-match") === file.etag) return new Response(null, { status: 304, headers });
  const gz = acceptsGzip(request);
  if (gz) headers.set("content-encoding", "gzip");
  return new Response(request.method === "HEAD" ? null : (gz ? file.gzip : file.raw), { headers });
}

/** The `/*` route: a chunk by its hashed name (immutable), or index.html for any client route. */
export async function serveWebApp(request: Request): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD" } });
  }
  const { files, index } = await webBundle();
  const path = requestPath(request);
  const file = files.get(path);
  if (file) return send(request, file, IMMUTABLE);
  // A chunk name that is not in this build (a page open across an upgrade) is a 404, not the HTML.
  if (/^\/chunk-[^/]+\.(js|css|map)$/.test(path)) return new Response("Not found", { status: 404 });
  return send(request, index, "no-cache");
}
