import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { useApi } from "../../helpers/server.ts";

// SSRF (docs/security.md "Outbound requests"): a user-supplied URL (the cssscraper identifier) never makes the server
// request an internal address, directly or through a redirect; an admin can allow one explicitly.

/** A listener on loopback that records whether it was reached. */
function recordingListener(answer: (request: Request) => Response) {
  const hits: string[] = [];
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => { hits.push(new URL(r.url).pathname); return answer(r); } });
  return { hits, host: server.url.host, stop: () => server.stop(true), url: server.url.origin };
}

const PAGE = `<html><body><span id="price">123.45</span></body></html>`;
const internal = recordingListener(() => new Response(PAGE, { headers: { "content-type": "text/html" } }));
// Stands for a public site: on the allow-list, it redirects wherever `?to=` says.
const publicSite = recordingListener((r) => new Response(null, { headers: { location: new URL(r.url).searchParams.get("to")! }, status: 302 }));
afterAll(() => { internal.stop(); publicSite.stop(); });
beforeEach(() => { internal.hits.length = 0; publicSite.hits.length = 0; });

const api = useApi({ users: ["admin", "bob"] });

async function scraperAsset(url: string): Promise<number> {
  const created = await (await api.as.bob!.post("/assets", [{ name: `scraped ${Math.random()}`, currency: "EUR" }])).json();
  const id = created.results[0].asset_id;
  const { results: [assigned] } = await (await api.as.bob!.post("/assets/provider", [{
    asset_id: id, provider_code: "cssscraper", identifier: url, identifier_type: "URL",
    provider_params: { current_css_selector: "#price", currency: "EUR" },
  }])).json();
  expect(assigned.success).toBe(true);
  return id;
}

async function setAllowList(value: string) {
  const res = await api.as.admin!.patch("/settings/global/bulk", { items: [{ key: "outbound_allowed_hosts", value }] });
  expect(res.status).toBe(200);
}

const refusedLines = () => api.server.logs().filter((l) => typeof l.msg === "string" && l.msg.includes("refused"));

describe("server-side requests to internal addresses are refused", () => {
  test("a scraper URL on loopback gives a per-item error, the listener is never reached, one log line", async () => {
    await setAllowList(publicSite.host);
    const before = refusedLines().length;
    const id = await scraperAsset(`${internal.url}/admin`);
    const res = await api.as.bob!.post("/assets/prices/current", [id]);
    expect(res.status).toBe(200);
    const [item] = (await res.json()).results;
    expect(item).toMatchObject({ asset_id: id, value: null, source: null });
    expect(item.error).toContain("refused");
    expect(item.error).toContain("loopback");
    expect(internal.hits).toEqual([]);
    expect(refusedLines().length - before).toBe(1);
  });

  test("a public URL that redirects to loopback is refused at the redirect hop", async () => {
    await setAllowList(publicSite.host);
    const id = await scraperAsset(`${publicSite.url}/go?to=${encodeURIComponent(`${internal.url}/admin`)}`);
    const [item] = (await (await api.as.bob!.post("/assets/prices/current", [id])).json()).results;
    expect(item.error).toContain("refused");
    expect(publicSite.hits).toEqual(["/go"]);
    expect(internal.hits).toEqual([]);
  });

  test("localhost by name and the IPv4-mapped IPv6 form are refused too", async () => {
    await setAllowList("");
    const port = new URL(internal.url).port;
    for (const url of [`http://localhost:${port}/x`, `http://[::ffff:127.0.0.1]:${port}/x`]) {
      const id = await scraperAsset(url);
      const [item] = (await (await api.as.bob!.post("/assets/prices/current", [id])).json()).results;
      expect(item.error).toContain("refused");
    }
    expect(internal.hits).toEqual([]);
  });

  test("an address the admin lists in outbound_allowed_hosts is reached", async () => {
    await setAllowList(`${publicSite.host},${internal.host}`);
    const id = await scraperAsset(`${internal.url}/lan-page`);
    const [item] = (await (await api.as.bob!.post("/assets/prices/current", [id])).json()).results;
    expect(item).toMatchObject({ value: "123.45", source: "provider:cssscraper", error: null });
    expect(internal.hits).toEqual(["/lan-page"]);
  });

  test("only an admin can change the allow-list", async () => {
    const res = await api.as.bob!.patch("/settings/global/bulk", { items: [{ key: "outbound_allowed_hosts", value: "0.0.0.0/0" }] });
    expect(res.status).toBe(403);
  });
});
