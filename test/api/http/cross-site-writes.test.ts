import { describe, expect, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { useApi } from "../../helpers/server.ts";

// Cross-site request forgery (docs/security.md "Cross-site writes"): a page of another site can make
// a signed-in browser post a form with its cookies. A write's body must be JSON (multipart only on
// the upload routes), and a cookie-authenticated write must come from the server's own origin.
const api = useApi({ users: ["alice"] });

const tokenNames = async () => ((await (await api.as.alice!.get("/auth/tokens")).json()).items as { name: string }[]).map((t) => t.name);

describe("a write's body must be JSON", () => {
  test("a form-encoded token request of a signed-in user is refused 415 and creates no token", async () => {
    const res = await api.as.alice!.request("POST", "/auth/tokens", "name=csrf&scope=read-write", { "content-type": "application/x-www-form-urlencoded" });
    const body = await expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(body.detail).toContain("application/json");
    expect(await tokenNames()).not.toContain("csrf");
  });

  test("a text/plain body that happens to be JSON (a form with enctype text/plain) is refused 415", async () => {
    const res = await api.as.alice!.request("POST", "/auth/tokens", JSON.stringify({ name: "csrf-text", scope: "read-write" }), { "content-type": "text/plain" });
    await expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(await tokenNames()).not.toContain("csrf-text");
  });

  test("a multipart body on a JSON route is refused 415; the upload route still takes multipart", async () => {
    const form = new FormData();
    form.append("name", "csrf-multipart");
    form.append("scope", "write");
    await expectError(await api.as.alice!.post("/auth/tokens", form), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(await tokenNames()).not.toContain("csrf-multipart");

    const upload = new FormData();
    upload.append("file", new File(["hello"], "note.txt", { type: "text/plain" }));
    expect((await api.as.alice!.post("/uploads", upload)).status).toBe(201);
  });

  test("JSON and bodiless writes pass", async () => {
    expect((await api.as.alice!.post("/auth/tokens", { name: "json-ok", scope: "read" })).status).toBe(201);
    expect(await tokenNames()).toContain("json-ok");
    expect((await api.as.alice!.request("POST", "/auth/tokens", JSON.stringify({ name: "json-charset", scope: "read" }), { "content-type": "application/json; charset=utf-8" })).status).toBe(201);
  });
});

describe("a cookie-authenticated write must come from the server's own pages", () => {
  test("a JSON write with another site's Origin is refused 403 and changes nothing", async () => {
    const res = await api.as.alice!.post("/auth/tokens", { name: "evil-origin", scope: "read-write" }, { origin: "https://evil.example" });
    await expectError(res, 403, "CROSS_SITE_REQUEST");
    expect(await tokenNames()).not.toContain("evil-origin");
  });

  test("a multipart upload posted by another site's form is refused 403", async () => {
    const form = new FormData();
    form.append("file", new File(["x"], "x.txt", { type: "text/plain" }));
    const res = await api.as.alice!.request("POST", "/uploads", form, { origin: "http://evil.example:8000" });
    await expectError(res, 403, "CROSS_SITE_REQUEST");
  });

  test("an opaque origin (a sandboxed frame, a file) and a cross-site fetch without Origin are refused", async () => {
    await expectError(await api.as.alice!.post("/auth/tokens", { name: "null-origin", scope: "read" }, { origin: "null" }), 403, "CROSS_SITE_REQUEST");
    await expectError(await api.as.alice!.post("/auth/tokens", { name: "fetch-site", scope: "read" }, { "sec-fetch-site": "cross-site" }), 403, "CROSS_SITE_REQUEST");
    expect(await tokenNames()).not.toContain("null-origin");
  });

  test("the server's own origin passes, and a personal access token is not a browser's cookie", async () => {
    const own = new URL(api.base).origin;
    const made = await api.as.alice!.post("/auth/tokens", { name: "same-origin", scope: "read-write" }, { origin: own, "sec-fetch-site": "same-origin" });
    expect(made.status).toBe(201);
    const { token } = await made.json();
    const bearer = await fetch(`${api.base}/brokers`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: "https://elsewhere.example" },
      body: JSON.stringify([{ name: "Scripted" }]),
    });
    expect(bearer.status).toBe(200);
    expect((await bearer.json()).results[0]).toMatchObject({ success: true, name: "Scripted" });
  });

  test("behind a proxy that passes the host without its port (nginx's $host), the public origin on another port passes", async () => {
    const made = await api.as.alice!.post("/auth/tokens", { name: "proxied-port", scope: "read" }, { host: "portfolio.example", origin: "https://portfolio.example:8443" });
    expect(made.status).toBe(201);
    await expectError(await api.as.alice!.post("/auth/tokens", { name: "proxied-evil", scope: "read" }, { host: "portfolio.example", origin: "https://evil.example:8443" }), 403, "CROSS_SITE_REQUEST");
  });

  test("reads are not affected by Origin", async () => {
    expect((await api.as.alice!.get("/auth/me", { origin: "https://evil.example" })).status).toBe(200);
  });
});

describe("browser headers on every answer", () => {
  test("API answers, errors and the web app carry CSP with frame-ancestors 'none', nosniff and a referrer policy", async () => {
    const answers = [
      await api.as.alice!.get("/auth/me"),
      await fetch(`${api.base}/nope`),
      await fetch(`${api.server.url}/`),
      await fetch(`${api.server.url}/brokers`),
      await fetch(`${api.server.url}/favicon.ico`),
    ];
    for (const res of answers) {
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("'unsafe-inline'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
    }
  });

  test("the API reference pages run no inline script", async () => {
    const page = await fetch(`${api.base}/docs`);
    const html = await page.text();
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const init = await fetch(`${api.base}/docs-assets/swagger-init.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain("SwaggerUIBundle");
    expect(html).toContain(`data-spec-url="/api/v1/openapi.json"`);
  });
});
