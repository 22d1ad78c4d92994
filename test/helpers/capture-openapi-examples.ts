/**
 * Replays the documented example requests (each area's host/api/<area>/<area>.openapi.ts) against a
 * fresh server in the order of REPLAY and stores each success body (unless one is written there) in
 * host/api/response-examples.json, so response examples are real answers.
 * Run: `bun test/helpers/capture-openapi-examples.ts`.
 */
import { join } from "node:path";
import { operationDocs } from "../../host/http/openapi/operations.ts";
import { API_DOCS } from "../../host/api/openapi.ts";
import { ApiClient } from "./client.ts";
import { ROOT, startServer } from "./server.ts";

/**
 * The order the examples run in, one that works on an empty database (alice is user 1, bob user 2;
 * what an example creates, a later one reads, changes or deletes). A documented example missing
 * here, or a key here without an example, stops the capture.
 */
const REPLAY = [
  "POST /auth/register", "POST /auth/login", "PATCH /auth/users/me/preferences", "POST /auth/tokens", "GET /auth/tokens",
  "DELETE /auth/tokens/{id}", "GET /mcp/drafts", "POST /mcp/drafts/{id}/commit", "POST /mcp/drafts/{id}/discard",
  "PUT /settings/user", "PATCH /settings/global/bulk", "POST /settings/global/initialize", "POST /settings/cache/clear/{name}",
  "POST /settings/cache/clear-all", "POST /brokers", "PATCH /brokers/{id}", "POST /brokers/{id}/access",
  "PATCH /brokers/{id}/access/{user_id}", "POST /assets", "PATCH /assets", "POST /assets/provider", "POST /assets/prices",
  "POST /assets/prices/query", "POST /assets/prices/current", "POST /assets/prices/sync", "POST /assets/events",
  "POST /assets/events/query", "POST /transactions/validate", "POST /transactions/commit", "POST /transactions/events/suggest",
  "POST /transactions/promote-suggest", "POST /transactions/transfers/promote", "POST /fx/currencies/rate",
  "POST /fx/currencies/private-rates", "DELETE /fx/currencies/private-rates", "POST /fx/currencies/convert",
  "POST /fx/providers/routes", "POST /fx/currencies/sync", "POST /portfolio/report", "POST /portfolio/wac",
  "POST /portfolio/lots/analysis", "POST /portfolio/realized-gains", "POST /assets/merge", "POST /uploads",
  "DELETE /uploads/{file_id}", "DELETE /fx/currencies/rate", "DELETE /fx/providers/routes", "DELETE /assets/events",
  "DELETE /assets/prices", "POST /assets/{asset_id}/market-data/wipe", "DELETE /assets/provider", "DELETE /assets",
  "PATCH /brokers/{id}/access/me", "DELETE /brokers/{id}/access/me", "DELETE /brokers/{id}/access/{user_id}",
  "DELETE /brokers/{id}", "DELETE /auth/users/me", "POST /backup/export", "POST /backup/restore",
  "DELETE /users/{user_id}/sessions", "PATCH /users/{user_id}", "POST /users/{user_id}/password", "POST /auth/change-password",
  "POST /brokers/import/upload", "DELETE /brokers/import/files/{file_id}", "POST /brokers/import/files/{file_id}/parse",
  "POST /brokers/import/files/{file_id}/commit", "POST /brokers/import/duplicates", "POST /brokers/import/asset-candidates",
  "POST /auth/logout", "PUT /assets/{id}/keeper", "POST /risk/query", "POST /risk/eligibility", "POST /signals/preview",
  "POST /tools/compute", "POST /ai-export/snapshot",
];
const OPERATION_DOCS = operationDocs(API_DOCS.areas, {});
const unplaced = Object.keys(OPERATION_DOCS).filter((k) => !REPLAY.includes(k));
const undocumented = REPLAY.filter((k) => !(k in OPERATION_DOCS));
if (unplaced.length || undocumented.length) throw new Error(`REPLAY is out of date: add ${unplaced.join(", ") || "nothing"}; remove ${undocumented.join(", ") || "nothing"}`);

const PATH_VALUES: Record<string, string> = { id: "1", user_id: "2", name: "portfolio_blob", asset_id: "3", file_id: "1" };
let brimFile = "";
const QUERIES: Record<string, string> = {
  "DELETE /assets/events": "?ids=1",
  "DELETE /assets/provider": "?asset_ids=1",
  "DELETE /assets": "?asset_ids=3",
};

const SELF = new Set(["POST /auth/register", "POST /auth/login", "POST /auth/change-password", "POST /auth/logout", "DELETE /auth/users/me"]);
/** Carol ends her own session and account last. */
const LAST = ["DELETE /auth/users/me", "POST /auth/logout"];

const BOB = new Set(["PATCH /brokers/{id}/access/me", "DELETE /brokers/{id}/access/me"]);

const server = await startServer();
const out: Record<string, unknown> = {};
try {
  const alice = new ApiClient(server.base);
  await alice.signUp("alice");
  const bob = new ApiClient(server.base);
  await bob.signUp("bob");
  const carol = new ApiClient(server.base);
  await alice.post("/assets", [{ name: "Merge source", currency: "USD" }]);
  for (const key of [...REPLAY.filter((k) => !LAST.includes(k)), ...LAST]) {
    const [method, path] = key.split(" ") as [string, string];
    const doc = OPERATION_DOCS[key]!;
    if (doc.response !== undefined) continue; // written by hand
    const url = path.replace(/\{(\w+)\}/g, (_, n: string) => (n === "file_id" && path.includes("/import/") ? brimFile : PATH_VALUES[n] ?? "1"))
      + (QUERIES[key] ?? "");
    if (key === "POST /uploads" || key === "POST /brokers/import/upload") {
      const form = new FormData();
      form.append("file", key === "POST /uploads"
        ? new File(["date,close\n2024-01-02,101.25\n"], "prices.csv", { type: "text/csv" })
        : new File(["date,type,symbol,isin,quantity,price,amount,currency\n2024-01-03,BUY,AAPL,US0378331005,10,102.80,-1028.00,EUR\n"], "report.csv", { type: "text/csv" }));
      const res = await alice.request("POST", key === "POST /uploads" ? "/uploads" : "/brokers/import/upload?broker_id=1", form);
      out[key] = await res.json();
      if (key === "POST /brokers/import/upload") brimFile = (out[key] as { file_id: string }).file_id;
      continue;
    }
    if (key === "DELETE /brokers/{id}/access/{user_id}") await alice.post("/brokers/1/access", { user_id: 2, role: "VIEWER" });
    const client = BOB.has(key) ? bob : SELF.has(key) ? carol : alice;
    const res = await client.request(method, url, doc.request);
    const text = await res.text();
    console.log(res.status, key, text.slice(0, 300));
    if (res.ok && text && !res.headers.get("content-disposition")) out[key] = JSON.parse(text);
    else if (!res.ok) process.exitCode = 1;
  }
} finally {
  await server.stop(true);
}
await Bun.write(join(ROOT, "host/api/response-examples.json"), JSON.stringify(out, null, 2) + "\n");
