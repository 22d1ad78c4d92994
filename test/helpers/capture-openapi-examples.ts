/**
 * Replays the documented example requests (host/http/openapi/operations.ts) against a fresh
 * server in their listed order and stores each success body (unless one is written there) in
 * host/http/openapi/response-examples.json, so response examples are real answers.
 * Run: `bun test/helpers/capture-openapi-examples.ts`.
 */
import { join } from "node:path";
import { OPERATION_DOCS } from "../../host/http/openapi/operations.ts";
import { ApiClient } from "./client.ts";
import { ROOT, startServer } from "./server.ts";

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
  for (const key of [...Object.keys(OPERATION_DOCS).filter((k) => !LAST.includes(k)), ...LAST]) {
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
await Bun.write(join(ROOT, "host/http/openapi/response-examples.json"), JSON.stringify(out, null, 2) + "\n");
