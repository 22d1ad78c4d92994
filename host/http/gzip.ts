/**
 * Response compression, one rule for every route: bodies of 1024 bytes or more
 * (or streamed) get `Vary: Accept-Encoding`, and are gzipped at level 6 when the client accepts
 * gzip, except already-encoded bodies, 206 replies and types that are compressed already.
 */
export const GZIP_THRESHOLD = 1024;
const GZIP_LEVEL = 6;

const NEVER_COMPRESSED = [
  /^text\/event-stream/,
  /^image\/(avif|gif|jpeg|png|webp)\b/,
  /^font\/woff2?\b/,
  /^application\/font-woff2?\b/,
  /^audio\//,
  /^video\//,
  /^application\/(gzip|x-gzip|zip|x-zip-compressed)\b/,
];

function compressibleType(contentType: string | null): boolean {
  const type = (contentType ?? "").toLowerCase();
  return !NEVER_COMPRESSED.some((re) => re.test(type));
}

export function acceptsGzip(request: Request): boolean {
  const header = request.headers.get("accept-encoding") ?? "";
  return header.split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return !q || Number(q.slice(2)) > 0;
  });
}

function addVary(headers: Headers): void {
  const vary = headers.get("vary");
  if (!vary) headers.set("vary", "Accept-Encoding");
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set("vary", `${vary}, Accept-Encoding`);
}

/**
 * Set by a route whose Response body is a stream of unknown length (the backup downloads), and
 * removed here. Such a route cannot say `transfer-encoding: chunked` itself: Elysia re-reads a
 * chunked Response as text (breaking binary bodies). Bun sends a stream body chunked anyway.
 */
export const STREAMED_BODY_HEADER = "x-streamed-body";

/** Streams (event streams, chunked generators, marked bodies) are never buffered: their size is unknown. */
function isStreamed(headers: Headers): boolean {
  return (headers.get("content-type") ?? "").startsWith("text/event-stream")
    || (headers.get("transfer-encoding") ?? "").toLowerCase().includes("chunked")
    || headers.has(STREAMED_BODY_HEADER);
}

function rebuild(response: Response, body: BodyInit | null, headers: Headers): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** Adds `Vary` to a response's own headers when its body is large enough; false when they are immutable. */
function varied(headers: Headers, bytes: number): boolean {
  if (bytes < GZIP_THRESHOLD) return true;
  try {
    addVary(headers);
    return true;
  } catch {
    return false;
  }
}

export async function gzipResponse(request: Request, response: Response, onBodyBytes?: (bytes: number) => void): Promise<Response> {
  if (!response.body || request.method === "HEAD" || response.status === 204 || response.status === 304) {
    return response;
  }
  const headers = new Headers(response.headers);
  if (isStreamed(headers)) {
    headers.delete(STREAMED_BODY_HEADER);
    addVary(headers);
    const compress = compressibleType(headers.get("content-type")) && !headers.has("content-encoding")
      && response.status !== 206 && acceptsGzip(request);
    if (!compress) return rebuild(response, response.body, headers);
    headers.set("content-encoding", "gzip");
    return rebuild(response, response.body.pipeThrough(new CompressionStream("gzip")), headers);
  }
  const untouched = response.status === 206 || headers.has("content-encoding")
    || !compressibleType(headers.get("content-type")) || !acceptsGzip(request);
  // Left as it is with its length declared (a report's stored gzip, or its bytes for a client
  // without gzip): sent without being read into another copy (docs/decisions.md, "Memory, third pass").
  const declared = Number(headers.get("content-length") ?? NaN);
  if (untouched && Number.isSafeInteger(declared) && declared >= 0 && varied(response.headers, declared)) {
    onBodyBytes?.(declared);
    return response;
  }
  // Bodies sent whole: under the threshold they are left exactly as they are.
  const bytes = new Uint8Array(await response.arrayBuffer());
  onBodyBytes?.(bytes.byteLength);
  if (bytes.byteLength < GZIP_THRESHOLD) return rebuild(response, bytes, headers);
  addVary(headers);
  if (untouched) return rebuild(response, bytes, headers);
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  const etag = headers.get("etag");
  if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
  return rebuild(response, Bun.gzipSync(bytes, { level: GZIP_LEVEL }), headers);
}

/**
 * JSON made and gzipped in a worker (a parse result, a duplicate report, a conversion, a price query)
 * as the answer: sent as it is with `Content-Encoding: gzip` when the client accepts gzip (the request
 * thread never serialises or compresses the rows), else decompressed as a stream, chunk by chunk.
 */
export function gzippedJson(gzipped: Uint8Array, request: Request): Response {
  const headers: Record<string, string> = { "content-type": "application/json", vary: "Accept-Encoding", "cache-control": "private, no-store" };
  if (acceptsGzip(request)) {
    return new Response(gzipped as Uint8Array<ArrayBuffer>, { headers: { ...headers, "content-encoding": "gzip", "content-length": String(gzipped.byteLength) } });
  }
  return new Response(new Blob([gzipped as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("gzip")), { headers });
}
