import { isJSONRPCRequest, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { mcpServerFactory } from "./mcp.server.ts";
import { loadConfig } from "../../config.ts";
import { createLogger } from "../../logger.ts";
import { assemble } from "../../main.ts";
import { shutdownWorkerPool } from "../../workers/pool.ts";
import { McpRelayError } from "./relay.cli.ts";

/**
 * The stdio transport with the token checked again before every request, as the HTTP endpoint does:
 * a token revoked (or an account ended) while the assistant's process runs stops at its next call.
 * Messages pass on in order, one check at a time.
 */
function checkedTransport(inner: Transport, refusal: () => Promise<string | null>): Transport {
  let queue = Promise.resolve();
  const outer: Transport = {
    start: () => {
      inner.onmessage = (message: JSONRPCMessage, extra) => {
        queue = queue.then(async () => {
          if (isJSONRPCRequest(message)) {
            const refused = await refusal();
            if (refused) return inner.send({ jsonrpc: "2.0", id: message.id, error: { code: -32001, message: refused } });
          }
          outer.onmessage?.(message, extra);
        });
      };
      inner.onclose = () => outer.onclose?.();
      inner.onerror = (error) => outer.onerror?.(error);
      return inner.start();
    },
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  return outer;
}

/**
 * `npm run cli -- mcp --data-dir <dir> --token pt_…` (docs/mcp.md "stdio"): the MCP server itself over
 * stdin/stdout, on DATA_DIR's database opened in this process, for when no server runs. The same
 * server as `/api/v1/mcp` (tools, grade, audit), for the caller of the same kind of token: an unknown,
 * revoked or non-MCP token is refused before anything is served. Log lines go to stderr (stdout
 * carries the protocol).
 */
export async function runMcpDirect(dataDir: string, token: string | undefined, env: Record<string, string | undefined> = process.env): Promise<number> {
  if (!token) throw new McpRelayError("Expected: mcp --data-dir <dir> --token <pt_…> (or PT_TOKEN in the environment)");
  const config = loadConfig({ ...env, DATA_DIR: dataDir });
  const logger = createLogger(config.logLevel === "debug" ? "debug" : "warn", { mode: "mcp-stdio" }, process.stderr);
  const { db, deps } = await assemble(config, logger);
  const stop = async () => {
    await shutdownWorkerPool();
    await db.close();
  };
  try {
    const mcp = mcpServerFactory(deps);
    const first = await mcp.check(token);
    if ("refusal" in first) throw new McpRelayError(`${first.refusal.code}: ${first.refusal.detail} (the token is checked against ${config.dataDir})`);
    const server = mcp.serverFor(first.caller);
    const transport = checkedTransport(new StdioServerTransport(), async () => {
      const now = await mcp.check(token);
      return "refusal" in now ? `${now.refusal.code}: ${now.refusal.detail}` : null;
    });
    const closed = new Promise<void>((done) => { transport.onclose = () => done(); });
    await server.connect(transport);
    process.stdin.on("end", () => void server.close());
    await closed;
    return 0;
  } finally {
    await stop();
  }
}
