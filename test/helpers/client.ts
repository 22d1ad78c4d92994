import { expect } from "bun:test";

/** A tiny HTTP client that keeps the session cookie, like a browser would. */
export class ApiClient {
  cookie = "";

  /** `send` replaces `fetch` (an in-process app's handler, test/helpers/in-process.ts). */
  constructor(readonly base: string, private readonly send: typeof fetch = fetch) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (this.cookie) (init.headers as Record<string, string>).cookie = this.cookie;
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const res = await this.send(this.base + path, init);
    const session = res.headers.getSetCookie().find((c) => c.startsWith("session="));
    if (session) {
      const value = session.split(";")[0]!;
      this.cookie = /max-age=0\b/i.test(session) || value === "session=" ? "" : value;
    }
    return res;
  }

  get(path: string, headers?: Record<string, string>) { return this.request("GET", path, undefined, headers); }
  post(path: string, body?: unknown, headers?: Record<string, string>) { return this.request("POST", path, body, headers); }
  put(path: string, body?: unknown) { return this.request("PUT", path, body); }
  patch(path: string, body?: unknown) { return this.request("PATCH", path, body); }
  delete(path: string) { return this.request("DELETE", path); }

  /** Registers (201 expected) and logs in. */
  async signUp(username: string, password = "Secret-pass1", email = `${username}@example.com`) {
    const reg = await this.post("/auth/register", { username, email, password });
    expect(reg.status).toBe(201);
    const user = (await reg.json()).user;
    const login = await this.post("/auth/login", { username, password });
    expect(login.status).toBe(200);
    return user as { id: number; username: string; is_superuser: boolean };
  }

  async login(username: string, password = "Secret-pass1") {
    return this.post("/auth/login", { username, password });
  }
}

/** Asserts the one error body of docs/errors.md and returns it. */
export async function expectError(res: Response, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type") ?? "").toContain("application/json");
  const body = await res.json();
  expect(body).toHaveProperty("detail");
  expect(typeof body.code).toBe("string");
  if (code) expect(body.code).toBe(code);
  expect(JSON.stringify(body)).not.toContain("    at ");
  return body;
}
