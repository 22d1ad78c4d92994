import { Elysia } from "elysia";
import type { HttpDeps } from "../../http/deps.ts";

/**
 * The MCP endpoint (docs/mcp.md) at `/api/v1/mcp`. Its handler, the MCP SDK and the tools are
 * loaded on the endpoint's first request, not at start-up: most servers never serve an assistant,
 * and the SDK with its tool modules held ~7 MB of the request thread's memory for good
 * (docs/decisions.md, "MCP server": the endpoint's modules loaded on its first request).
 */
export function mcpRoutes(deps: HttpDeps) {
  let handler: Promise<(request: Request) => Promise<Response>> | undefined;
  const serve = async ({ request }: { request: Request }) => {
    handler ??= import("./mcp.server.ts").then((m) => m.mcpHttp(deps));
    return (await handler)(request);
  };
  const detail = { summary: "Model Context Protocol endpoint (Streamable HTTP; docs/mcp.md)", hide: true };
  return new Elysia({ tags: ["mcp"] })
    .post("/mcp", serve, { parse: "none", detail })
    .get("/mcp", serve, { detail })
    .delete("/mcp", serve, { detail });
}
