import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/** An official MCP client on the server's HTTP endpoint, on the current protocol revision, with a bearer token. */
export async function connectMcp(apiBase: string, secret: string): Promise<Client> {
  const client = new Client({ name: "test", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${apiBase}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  return client;
}
