import { afterAll, beforeEach, describe, expect, test } from "bun:test";
import { createHttpClient, PluginError } from "../../sdk/index.ts";
import { internalRange, parseIp } from "../../sdk/ip-address.ts";

/** A local listener that records every request it receives (whether it was reached at all). */
function listener(answer: (request: Request) => Response = () => new Response("reached")) {
  const hits: { host: string | null; path: string }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      hits.push({ host: request.headers.get("host"), path: new URL(request.url).pathname });
      return answer(request);
    },
  });
  return { hits, host: server.url.host, server, url: server.url.origin };
}

const internal = listener();
const redirector = listener((request) => {
  const url = new URL(request.url);
  const to = url.searchParams.get("to");
  if (to) return new Response(null, { headers: { location: to }, status: 302 });
  const left = Number(url.searchParams.get("hops") ?? 0);
  if (left > 0) return new Response(null, { headers: { location: `/loop?hops=${left - 1}` }, status: 302 });
  return new Response("arrived");
});
afterAll(() => { internal.server.stop(true); redirector.server.stop(true); });
beforeEach(() => { internal.hits.length = 0; redirector.hits.length = 0; });

async function refusal(promise: Promise<unknown>): Promise<PluginError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginError);
  expect((error as PluginError).reason).toBe("blocked");
  return error as PluginError;
}

describe("internal destinations are refused before any connection", () => {
  test("loopback, private, link-local, CGNAT, multicast, unspecified and IPv4-mapped forms are all internal", () => {
    const cases: [string, string][] = [
      ["127.0.0.1", "loopback"], ["127.8.9.10", "loopback"], ["::1", "loopback"], ["10.1.2.3", "private"],
      ["172.16.0.1", "private"], ["192.168.1.1", "private"], ["fd12:3456::1", "private"], ["169.254.169.254", "link-local"],
      ["fe80::1", "link-local"], ["100.64.0.1", "carrier-grade NAT"], ["224.0.0.1", "multicast"], ["ff02::1", "multicast"],
      ["0.0.0.0", "unspecified"], ["::", "unspecified"], ["::ffff:127.0.0.1", "loopback"], ["::ffff:7f00:1", "loopback"],
      ["::ffff:169.254.169.254", "link-local"], ["64:ff9b::a00:1", "private"], ["255.255.255.255", "broadcast"],
    ];
    expect(cases.map(([ip]) => [ip, internalRange(parseIp(ip)!)])).toEqual(cases);
    expect(["8.8.8.8", "1.1.1.1", "2a00:1450:4001::200e", "::ffff:8.8.8.8"].map((ip) => internalRange(parseIp(ip)!))).toEqual([null, null, null, null]);
  });

  test("a loopback URL is refused with reason blocked and the listener is never reached", async () => {
    const http = createHttpClient();
    for (const url of [`${internal.url}/secret`, `http://[::ffff:127.0.0.1]:${internal.server.port}/secret`, `http://2130706433:${internal.server.port}/`]) {
      const error = await refusal(http.getText(url));
      expect(error.message).toContain("loopback");
    }
    expect(internal.hits).toEqual([]);
  });

  test("a host name that resolves to an internal address is refused", async () => {
    const http = createHttpClient({ lookup: async () => ["127.0.0.1"] });
    await refusal(http.getText(`http://innocent.example:${internal.server.port}/`));
    await refusal(createHttpClient().getText(`http://localhost:${internal.server.port}/`));
    expect(internal.hits).toEqual([]);
  });

  test("a name is refused when any of its addresses is internal", async () => {
    await refusal(createHttpClient({ lookup: async () => ["93.184.216.34", "10.0.0.5"] }).getText("http://mixed.example/"));
  });

  test("only http and https are allowed", async () => {
    const http = createHttpClient();
    for (const url of ["file:///etc/passwd", "ftp://example.com/x", "gopher://example.com/"]) {
      expect((await refusal(http.getText(url))).message).toContain("scheme");
    }
  });

  test("the client connects to the address it checked: one lookup per hop, the Host header keeps the name", async () => {
    let lookups = 0;
    const http = createHttpClient({
      allowedDestinations: () => [internal.host],
      lookup: async () => (++lookups === 1 ? ["127.0.0.1"] : ["10.9.9.9"]),
    });
    const answer = await http.getText(`http://rebind.example:${internal.server.port}/page`);
    expect([answer.text, lookups, answer.url]).toEqual(["reached", 1, `http://rebind.example:${internal.server.port}/page`]);
    expect(internal.hits).toEqual([{ host: `rebind.example:${internal.server.port}`, path: "/page" }]);
  });
});

describe("redirects", () => {
  const allowRedirector = () => createHttpClient({ allowedDestinations: () => [redirector.host] });

  test("every redirect hop is checked: an allowed page redirecting to loopback is refused", async () => {
    await refusal(allowRedirector().getText(`${redirector.url}/go?to=${encodeURIComponent(`${internal.url}/secret`)}`));
    await refusal(allowRedirector().getText(`${redirector.url}/go?to=${encodeURIComponent("file:///etc/passwd")}`));
    expect(redirector.hits.length).toBe(2);
    expect(internal.hits).toEqual([]);
  });

  test("at most 5 redirects are followed", async () => {
    expect((await allowRedirector().getText(`${redirector.url}/loop?hops=5`)).text).toBe("arrived");
    redirector.hits.length = 0;
    expect((await refusal(allowRedirector().getText(`${redirector.url}/loop?hops=6`))).message).toContain("more than 5");
    expect(redirector.hits.length).toBe(6);
  });
});

describe("the allow-list", () => {
  test("host:port admits that port only; a CIDR admits its range; a host name admits that name", async () => {
    const port = internal.server.port;
    expect((await createHttpClient({ allowedDestinations: () => [`127.0.0.1:${port}`] }).getText(`${internal.url}/a`)).text).toBe("reached");
    await refusal(createHttpClient({ allowedDestinations: () => [`127.0.0.1:${Number(port) + 1}`] }).getText(`${internal.url}/b`));
    expect((await createHttpClient({ allowedDestinations: () => ["127.0.0.0/8"] }).getText(`${internal.url}/c`)).text).toBe("reached");
    await refusal(createHttpClient({ allowedDestinations: () => ["10.0.0.0/8"] }).getText(`${internal.url}/d`));
    expect((await createHttpClient({ allowedDestinations: () => ["localhost"] }).getText(`http://localhost:${port}/e`)).text).toBe("reached");
    expect(internal.hits.map((h) => h.path)).toEqual(["/a", "/c", "/e"]);
  });

  test("a refusal is reported once through onRefused", async () => {
    const seen: string[] = [];
    await refusal(createHttpClient({ onRefused: (e) => seen.push(e.reason) }).getJson(`${internal.url}/x`));
    expect(seen).toEqual(["blocked"]);
  });
});
