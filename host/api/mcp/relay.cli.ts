import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/** A relay failure the CLI reports as a usage error. */
export class McpRelayError extends Error {}

const VERSION_META = "io.modelcontextprotocol/protocolVersion";

/** The JSON-RPC messages of an MCP HTTP answer: one JSON body, or the `data:` events of an SSE stream. */
async function messagesOf(res: Response): Promise<JSONRPCMessage[]> {
  const text = await res.text();
  if (!text.trim()) return [];
  if (!(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const body = JSON.parse(text);
    return Array.isArray(body) ? body : [body];
  }
  return text.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)));
}

/**
 * `npm run cli -- mcp --token pt_… [--url http://localhost:8000]` (docs/mcp.md "stdio"): for MCP
 * clients that only launch local servers, relays newline-delimited JSON-RPC between stdin/stdout and
 * a running server's `/api/v1/mcp`. It holds no data and no rights of its own: every message is one
 * HTTP request with the token, so the server's grade, checks and audit apply unchanged.
 */
export async function runMcpRelay(args: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const token = option("--token") ?? env.PT_TOKEN;
  if (!token) throw new McpRelayError("Expected: mcp --token <pt_…> [--url http://localhost:8000] (or PT_TOKEN in the environment)");
  const endpoint = `${(option("--url") ?? env.PT_URL ?? "http://localhost:8000").replace(/\/+$/, "")}/api/v1/mcp`;
  const transport = new StdioServerTransport();
  let version: string | undefined;

  const relay = async (message: JSONRPCMessage) => {
    const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta?.[VERSION_META];
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream",
    };
    const pinned = typeof meta === "string" ? meta : version;
    if (pinned) headers["mcp-protocol-version"] = pinned;
    const id = (message as { id?: string | number }).id;
    try {
      const res = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify(message) });
      if (res.status >= 400 && !(res.headers.get("content-type") ?? "").includes("json-rpc") && id !== undefined) {
        const body = await res.json().catch(() => null) as { detail?: unknown; code?: string; error?: unknown } | null;
        if (body && "jsonrpc" in body) return await transport.send(body as unknown as JSONRPCMessage);
        const detail = typeof body?.detail === "string" ? body.detail : `HTTP ${res.status}`;
        return await transport.send({ jsonrpc: "2.0", id, error: { code: -32001, message: `${body?.code ?? "HTTP_ERROR"}: ${detail}` } });
      }
      for (const out of await messagesOf(res)) {
        const result = (out as { result?: { protocolVersion?: unknown } }).result;
        if (typeof result?.protocolVersion === "string") version = result.protocolVersion;
        await transport.send(out);
      }
    } catch (error) {
      if (id !== undefined) {
        await transport.send({ jsonrpc: "2.0", id, error: { code: -32603, message: `The server could not be reached: ${(error as Error).message}` } });
      }
    }
  };

  // Messages are relayed in order, one at a time, as a local stdio server would answer them.
  let queue = Promise.resolve();
  transport.onmessage = (message) => { queue = queue.then(() => relay(message)); };
  const closed = new Promise<void>((done) => { transport.onclose = () => done(); });
  await transport.start();
  process.stdin.on("end", () => void queue.then(() => transport.close()));
  await closed;
  return 0;
}
