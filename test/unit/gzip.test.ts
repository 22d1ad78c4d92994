import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { gzipResponse } from "../../host/http/gzip.ts";

const big = "x".repeat(5000);
const req = (enc = "gzip") => new Request("http://localhost/", { headers: { "accept-encoding": enc } });

describe("gzip rules", () => {
  test("206 range replies are untouched", async () => {
    const res = await gzipResponse(req(), new Response(big, { status: 206, headers: { "content-type": "text/plain" } }));
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toBe(big);
  });

  test("already-encoded responses are untouched", async () => {
    const res = await gzipResponse(req(), new Response(big, { headers: { "content-type": "text/plain", "content-encoding": "br" } }));
    expect(res.headers.get("content-encoding")).toBe("br");
  });

  test("listed binary types are never compressed; SVG is", async () => {
    for (const type of ["image/png", "image/jpeg", "image/webp", "image/avif", "image/gif", "font/woff2", "audio/mpeg", "video/mp4", "application/zip", "application/gzip"]) {
      const res = await gzipResponse(req(), new Response(big, { headers: { "content-type": type } }));
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
    }
    const svg = await gzipResponse(req(), new Response(big, { headers: { "content-type": "image/svg+xml" } }));
    expect(svg.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(new Uint8Array(await svg.arrayBuffer())).toString()).toBe(big);
  });

  test("event streams get Vary but are never compressed or buffered", async () => {
    const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("data: 1\n\n")); c.close(); } });
    const res = await gzipResponse(req(), new Response(stream, { headers: { "content-type": "text/event-stream" } }));
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(await res.text()).toBe("data: 1\n\n");
  });

  test("exactly 1024 bytes is compressed; 1023 is not", async () => {
    const at = await gzipResponse(req(), new Response("y".repeat(1024), { headers: { "content-type": "text/plain" } }));
    expect(at.headers.get("content-encoding")).toBe("gzip");
    const under = await gzipResponse(req(), new Response("y".repeat(1023), { headers: { "content-type": "text/plain" } }));
    expect(under.headers.get("content-encoding")).toBeNull();
    expect(under.headers.get("vary")).toBeNull();
  });

  test("Set-Cookie headers survive compression", async () => {
    const headers = new Headers({ "content-type": "application/json" });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    const res = await gzipResponse(req(), new Response(big, { headers }));
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
  });

  test("a body left as it is with a declared length is passed on unread, Vary added", async () => {
    const text = Array.from({ length: 800 }, (_, i) => (i * 7919 % 104729).toString(36)).join(",");
    const gz = new Uint8Array(Bun.gzipSync(text));
    expect(gz.byteLength).toBeGreaterThan(1024);
    const original = new Response(gz, { headers: { "content-type": "application/json", "content-encoding": "gzip", "content-length": String(gz.byteLength) } });
    let counted = -1;
    const res = await gzipResponse(req(), original, (n) => { counted = n; });
    expect(res).toBe(original);
    expect(res.bodyUsed).toBe(false);
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(counted).toBe(gz.byteLength);
    expect(gunzipSync(new Uint8Array(await res.arrayBuffer())).toString()).toBe(text);
    // A client without gzip, plain bytes of a declared length: unread too.
    const plain = new Response(big, { headers: { "content-type": "application/json", "content-length": String(big.length) } });
    const same = await gzipResponse(req("identity"), plain);
    expect(same).toBe(plain);
    expect(same.headers.get("vary")).toBe("Accept-Encoding");
    // Compressible and accepted: still compressed, the declared length dropped.
    const zipped = await gzipResponse(req(), new Response(big, { headers: { "content-type": "application/json", "content-length": String(big.length) } }));
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    expect(zipped.headers.get("content-length")).not.toBe(String(big.length));
  });
});
