import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startQuotesUpstream, type QuotesUpstream } from "../fakes/quotes-upstream.ts";
import { OFFLINE_PLUGIN_CONFIG } from "./offline-plugins.ts";
import { startServer, type TestServer } from "./server.ts";

/**
 * The real server with the test-only `fakequotes` provider loaded from a temporary PLUGINS_DIR
 * and configured (PLUGINS_CONFIG) to call a local fake upstream.
 */
export async function startServerWithFakeQuotes(config: { timeoutMs?: number } = {}): Promise<{ server: TestServer; upstream: QuotesUpstream }> {
  const upstream = startQuotesUpstream();
  const dir = mkdtempSync(join(tmpdir(), "pt-fakequotes-"));
  cpSync(join(import.meta.dir, "../fixtures/plugins/fake-quotes"), join(dir, "plugins", "fake-quotes"), { recursive: true });
  const configFile = join(dir, "plugins.json");
  writeFileSync(configFile, JSON.stringify({ ...OFFLINE_PLUGIN_CONFIG, fakequotes: { baseUrl: upstream.url, ...config } }));
  const server = await startServer({ allowOutbound: [new URL(upstream.url).host], env: { PLUGINS_DIR: join(dir, "plugins"), PLUGINS_CONFIG: configFile } });
  return { server, upstream };
}
