/**
 * Worker thread of test/helpers/test-db.ts: holds one PostgreSQL connection per database URL and
 * runs the statements the test thread posts, in one transaction, while that thread waits (Atomics)
 * for the answer. Rows come back as from bun:sqlite: booleans as 1/0.
 */
import pg from "pg";
import { parentPort } from "node:worker_threads";
import { pgConfig } from "../../host/db/postgres.ts";

const clients = new Map<string, Promise<pg.Client>>();

function clientFor(url: string): Promise<pg.Client> {
  let found = clients.get(url);
  if (!found) {
    const config = pgConfig(url);
    const client = new config.Client(config as pg.ClientConfig);
    client.on("error", () => clients.delete(url));
    found = client.connect().then(() => client);
    clients.set(url, found);
  }
  return found;
}

const flag = (v: unknown) => (typeof v === "boolean" ? (v ? 1 : 0) : v);

parentPort!.on("message", async (message: { signal: Int32Array; port: MessagePort; url: string; statements: { sql: string; params: unknown[] }[] }) => {
  let reply: unknown;
  let client: pg.Client | undefined;
  try {
    client = await clientFor(message.url);
    await client.query("BEGIN");
    const results = [];
    for (const s of message.statements) {
      const { rows, rowCount } = await client.query(s.sql, s.params);
      results.push({ changes: rowCount ?? 0, rows: rows.map((r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, flag(v)]))) });
    }
    await client.query("COMMIT");
    reply = { results };
  } catch (error) {
    await client?.query("ROLLBACK").catch(() => undefined);
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  message.port.postMessage(reply);
  Atomics.store(message.signal, 0, 1);
  Atomics.notify(message.signal, 0);
});
