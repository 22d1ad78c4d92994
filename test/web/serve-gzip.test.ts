import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { useApi } from "../helpers/server.ts";

// The app's chunks come from the real server gzipped (they do not pass through the API's gzip
// wrapper), and decode to the same bytes a client without gzip gets.
const api = useApi();

/** fetch() would decode gzip itself; decompress: false shows the bytes on the wire. */
const raw = (url: string, encoding: string, headers: Record<string, string> = {}) =>
  fetch(url, { headers: { "accept-encoding": encoding, ...headers }, decompress: false } as RequestInit);

test("a JS and a CSS chunk are served gzip-encoded when the client accepts gzip, identical once decoded", async () => {
  const html = await (await fetch(api.server.url + "/brokers/1")).text();
  const chunks = [...html.matchAll(/(?:src|href)="(\/chunk-[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  expect(chunks.some((c) => c.endsWith(".js"))).toBe(true);
  expect(chunks.some((c) => c.endsWith(".css"))).toBe(true);
  for (const path of chunks) {
    const gz = await raw(api.server.url + path, "gzip, deflate, br");
    expect(gz.status).toBe(200);
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("Accept-Encoding");
    expect(gz.headers.get("cache-control")).toContain("immutable");
    expect(gz.headers.get("content-type")).toContain(path.endsWith(".js") ? "javascript" : "text/css");
    const wire = new Uint8Array(await gz.arrayBuffer());

    const plain = await raw(api.server.url + path, "identity");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    const bytes = new Uint8Array(await plain.arrayBuffer());
    expect(wire.length).toBeLessThan(bytes.length);
    expect(Buffer.from(gunzipSync(wire)).equals(Buffer.from(bytes))).toBe(true);

    // Revalidation by ETag answers 304 without a body.
    const again = await raw(api.server.url + path, "gzip", { "if-none-match": gz.headers.get("etag")! });
    expect(again.status).toBe(304);
  }
});

test("client routes get index.html (not cached), an unknown chunk is a 404, the API stays JSON", async () => {
  const page = await raw(api.server.url + "/assets/7?tab=prices", "gzip");
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(page.headers.get("cache-control")).toBe("no-cache");
  expect(new TextDecoder().decode(gunzipSync(new Uint8Array(await page.arrayBuffer())))).toContain('<div id="app">');
  expect((await fetch(api.server.url + "/chunk-doesnotexist.js")).status).toBe(404);
  const post = await fetch(api.server.url + "/brokers", { method: "POST", body: "x" });
  expect(post.status).toBe(405);
  expect(post.headers.get("allow")).toBe("GET, HEAD");
  const head = await fetch(api.server.url + "/settings", { method: "HEAD", headers: { "accept-encoding": "gzip" }, decompress: false } as RequestInit);
  expect(head.status).toBe(200);
  expect(head.headers.get("content-type")).toContain("text/html");
  expect((await head.arrayBuffer()).byteLength).toBe(0);
  const missing = await fetch(api.server.url + "/api/v1/no-such-route");
  expect(missing.status).toBe(404);
  expect(missing.headers.get("content-type")).toContain("application/json");
});
