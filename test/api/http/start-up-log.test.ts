import { expect, test } from "bun:test";
import { browserUrls } from "../../../host/main.ts";
import { startServer } from "../../helpers/server.ts";

// A self-hoster reads the start-up log to find the app: it names addresses a browser can open and
// the API documentation, and the log says when the server stops.

test("listening on every interface, the start-up log names localhost and the docs, not 0.0.0.0; shutdown is logged", async () => {
  const server = await startServer({ env: { HOST: "0.0.0.0" } });
  const listening = server.logs().find((l) => l.msg === "listening")!;
  const port = listening.port as number;
  expect(listening.web_app[0]).toBe(`http://localhost:${port}/`);
  expect(listening.web_app.some((u: string) => u.includes("0.0.0.0"))).toBe(false);
  expect(listening.api_docs).toBe(`http://localhost:${port}/api/v1/docs`);
  expect((await fetch(listening.api_docs)).status).toBe(200);
  await server.stop(true);
  const messages = server.logs().map((l) => l.msg);
  expect(messages).toContain("shutting down");
  expect(messages.indexOf("stopped")).toBeGreaterThan(messages.indexOf("shutting down"));
});

test("a server bound to one address names that address", () => {
  expect(browserUrls("127.0.0.1", 8000)).toEqual(["http://127.0.0.1:8000"]);
  expect(browserUrls("::1", 8000)).toEqual(["http://[::1]:8000"]);
  expect(browserUrls("0.0.0.0", 8000)[0]).toBe("http://localhost:8000");
});
