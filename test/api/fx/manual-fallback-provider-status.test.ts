import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { FxUpstream } from "../../fakes/fx-upstream.ts";
import { ApiClient } from "../../helpers/client.ts";
import { seedFxRoute, startServerWithFakeFx } from "../../helpers/fake-fx-server.ts";
import type { TestServer } from "../../helpers/server.ts";
import { classifySyncFailure } from "../../../core/fx/provider-status.ts";

let server: TestServer;
let upstream: FxUpstream;
let admin: ApiClient;

beforeAll(async () => {
  ({ server, upstream } = await startServerWithFakeFx());
  admin = new ApiClient(server.base);
  await admin.signUp("fxadmin");
  // The provider has EUR-USD rates from March 2025 only; the administrator typed one for January.
  upstream.rates.set("EUR-USD", [{ date: "2025-03-03", rate: "1.08" }, { date: "2025-03-04", rate: "1.09" }]);
  seedFxRoute(server.dataDir, { base: "EUR", quote: "USD", priority: 1, steps: [{ from: "EUR", to: "USD", provider: "FAKEFX" }] });
  expect((await admin.post("/fx/currencies/sync", { pairs: ["EUR-USD"], start: "2025-03-01", end: "2025-03-05" })).status).toBe(200);
  expect((await admin.post("/fx/currencies/rate", [{ date: "2025-01-02", base: "EUR", quote: "USD", rate: "1.05" }])).status).toBe(200);
});
afterAll(async () => { upstream.stop(); await server.stop(true); });

const rateOn = async (date: string) => {
  const res = await admin.post("/fx/currencies/convert", [{ from_amount: { code: "EUR", amount: "1" }, to: "USD", date_range: { start: date } }]);
  return res.status === 200 ? (await res.json()).results[0]?.rate as string | undefined : undefined;
};
const routesOf = async () => ((await (await admin.get("/fx/providers/routes")).json()) as { base: string; quote: string; priority: number; chain_steps: { provider: string }[] }[])
  .filter((r) => r.base === "EUR" && r.quote === "USD").map((r) => [r.priority, r.chain_steps.map((s) => s.provider).join("+")]);

describe("manual rates as the fallback of a pair with provider routes", () => {
  test("without a MANUAL route the manual rates of a provider pair convert nothing", async () => {
    expect(await rateOn("2025-02-03")).toBeUndefined();
    expect(await rateOn("2025-03-04")).toMatch(/^1\.09/);
  });

  test("a MANUAL route added after the provider routes is the fallback: manual rates convert the days the provider has none for", async () => {
    const res = await admin.post("/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 999, chain_steps: [{ from: "EUR", to: "USD", provider: "MANUAL" }] }]);
    expect(res.status).toBe(201);
    expect((await res.json()).results[0]).toMatchObject({ success: true, action: "created" });
    expect(await rateOn("2025-02-03")).toMatch(/^1\.05/);
    // The provider still wins where it has a rate.
    expect(await rateOn("2025-03-04")).toMatch(/^1\.09/);
  });

  test("adding another provider route keeps the MANUAL fallback (it is no placeholder: the pair already had a provider route)", async () => {
    const res = await admin.post("/fx/providers/routes", [{ base: "EUR", quote: "USD", priority: 2, chain_steps: [{ from: "EUR", to: "USD", provider: "FAKEFX2" }] }]);
    expect((await res.json()).results[0]).toMatchObject({ success: true, action: "created" });
    expect(await routesOf()).toEqual([[1, "FAKEFX"], [2, "FAKEFX2"], [999, "MANUAL"]]);
  });
});

describe("provider status: the last sync failure per provider, with its cause", () => {
  const status = async () => ((await (await admin.get("/fx/providers/status")).json()) as { provider: string; succeeded_at: string | null; error: { cause: string; http_status: number | null } | null }[])
    .find((s) => s.provider === "FAKEFX");

  test("an HTTP error of the provider is recorded with its status, and shown in the sync's detail", async () => {
    upstream.failures.set("EUR-USD", 503);
    const body = await (await admin.post("/fx/currencies/sync", { pairs: ["EUR-USD"], start: "2025-02-01", end: "2025-02-05" })).json();
    upstream.failures.clear();
    expect(body.results[0].detail.find((d: { provider: string }) => d.provider === "FAKEFX")).toMatchObject({ cause: "http", http_status: 503 });
    expect((await status())?.error).toMatchObject({ cause: "http", http_status: 503 });
  });

  test("a later success clears the current failure", async () => {
    await admin.post("/fx/currencies/sync", { pairs: ["EUR-USD"], start: "2025-03-02", end: "2025-03-05" });
    const s = await status();
    expect(s?.error).toBeNull();
    expect(s?.succeeded_at).toBeString();
  });

  test("a provider that cannot be reached is recorded as offline", async () => {
    upstream.stop();
    await admin.post("/fx/currencies/sync", { pairs: ["EUR-USD"], start: "2025-01-06", end: "2025-01-09" });
    expect((await status())?.error?.cause).toBe("offline");
  });
});

test("failure causes are read from the SDK's error wording", () => {
  expect(classifySyncFailure("unavailable: rates.example answered HTTP 502", "unavailable")).toMatchObject({ cause: "http", httpStatus: 502 });
  expect(classifySyncFailure("rate-limited: x answered HTTP 429", "rate-limited")).toMatchObject({ cause: "rate_limited", httpStatus: 429 });
  expect(classifySyncFailure("unavailable: data-api.ecb.europa.eu could not be reached: getaddrinfo ENOTFOUND data-api.ecb.europa.eu", "unavailable").cause).toBe("dns");
  expect(classifySyncFailure("unavailable: x could not be reached: Unable to connect. Is the computer able to access the url?", "unavailable").cause).toBe("offline");
  expect(classifySyncFailure("timeout: x gave no answer within 60000 ms", "timeout").cause).toBe("timeout");
  expect(classifySyncFailure("blocked: x is not an allowed destination", "blocked").cause).toBe("blocked");
  expect(classifySyncFailure("Provider ECB is not loaded").cause).toBe("not_loaded");
});
