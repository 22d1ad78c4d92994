import { beforeAll, describe, expect, test } from "bun:test";
import { ApiClient } from "../../helpers/client.ts";
import { documented, example, loadOperations, type Operation, wrongAnswer } from "../../helpers/openapi-operations.ts";
import { useApi } from "../../helpers/server.ts";

// Each operation of the OpenAPI document lists the error statuses it can return, derived from its
// route (docs/errors.md "Which statuses an operation lists"). Every operation is called with bad
// requests here, and each answer's status must be one the operation documents.
const api = useApi({ users: ["admin", "bob"] });

let operations: Operation[] = [];

beforeAll(async () => {
  operations = await loadOperations(api.base);
});

/** Calls that end or change the caller's session or account run as a user of their own. */
const SESSION_ENDING = new Set(["POST /auth/logout", "DELETE /auth/users/me", "POST /auth/change-password", "DELETE /brokers/{id}/access/me"]);

const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000";

/** The path with each parameter replaced by an id that names nothing. */
function unknownPath({ path, op }: Operation): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const schema = (op.parameters ?? []).find((p: any) => p.in === "path" && p.name === name)?.schema ?? {};
    if (schema.type === "integer" || schema.type === "number") return "999999";
    if (schema.format === "uuid" || /file_id/.test(name)) return UNKNOWN_UUID;
    return "no-such-thing";
  });
}

/** The example body with every id (`broker_id`, `asset_ids`, ...) replaced by one that names nothing. */
function unknownIds(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => unknownIds(v, key));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unknownIds(v, k)]));
  return typeof value === "number" && /(^|_)ids?$/.test(key) ? 999999 : value;
}

let fresh = 0;
async function callerFor(o: Operation): Promise<ApiClient> {
  if (!SESSION_ENDING.has(`${o.method} ${o.path}`)) return api.as.bob!;
  const client = api.client();
  await client.signUp(`throwaway${++fresh}`);
  return client;
}

async function mismatches(call: (o: Operation) => Promise<Response | null>, expectedStatus?: (o: Operation) => number | null): Promise<string[]> {
  const wrong: string[] = [];
  for (const o of operations) {
    const res = await call(o);
    if (!res) continue;
    const status = res.status;
    const text = await res.text();
    const key = `${o.method} ${o.path}`;
    const want = expectedStatus?.(o);
    const wrongly = want != null && status !== want ? `${status}, expected ${want}` : wrongAnswer(o, status, text);
    if (wrongly) wrong.push(`${key}: ${wrongly}`);
  }
  return wrong;
}

describe("every operation answers only the error statuses it documents", () => {
  test("the document lists at least one error status per operation with parameters or a session, and no longer the same six everywhere", () => {
    const sets = new Map<string, number>();
    for (const o of operations) {
      const errors = documented(o.op).filter((s) => s >= 400).join(",");
      sets.set(errors, (sets.get(errors) ?? 0) + 1);
    }
    expect(Math.max(...sets.values())).toBeLessThan(operations.length / 2);
  });

  test("without a session: 401 on every signed-in operation, a documented status on the public ones", async () => {
    const wrong = await mismatches(
      (o) => api.client().request(o.method, unknownPath(o), o.op.requestBody ? (example(o.op) ?? {}) : undefined),
      (o) => (o.op.security?.length === 0 ? null : 401),
    );
    expect(wrong).toEqual([]);
  });

  test("a body that is not JSON: a documented status (400 MALFORMED_BODY where a JSON body is read)", async () => {
    const wrong = await mismatches(async (o) => {
      if (!o.op.requestBody?.content?.["application/json"]) return null;
      return (await callerFor(o)).request(o.method, unknownPath(o), "{not json", { "content-type": "application/json" });
    });
    expect(wrong).toEqual([]);
  });

  test("a write with a form body: 415 UNSUPPORTED_MEDIA_TYPE, documented on every write", async () => {
    const wrong = await mismatches(async (o) => {
      if (o.method === "GET") return null;
      return (await callerFor(o)).request(o.method, unknownPath(o), "a=1", { "content-type": "application/x-www-form-urlencoded" });
    }, (o) => (o.method === "GET" ? null : 415));
    expect(wrong).toEqual([]);
  });

  test("a cookie-signed write from another site: 403 CROSS_SITE_REQUEST, documented on every write", async () => {
    const wrong = await mismatches(async (o) => {
      if (o.method === "GET") return null;
      return (await callerFor(o)).request(o.method, unknownPath(o), example(o.op), { origin: "https://evil.example" });
    }, (o) => (o.method === "GET" ? null : 403));
    expect(wrong).toEqual([]);
  });

  test("an unknown id in the path, or the documented example request by a user who owns nothing: a documented status", async () => {
    const wrong = await mismatches(async (o) => {
      const body = o.op.requestBody?.content?.["application/json"] ? (example(o.op) ?? {}) : undefined;
      return (await callerFor(o)).request(o.method, unknownPath(o), body);
    });
    const withKnownPath = await mismatches(async (o) => {
      if (!o.path.includes("{")) return null;
      const body = o.op.requestBody?.content?.["application/json"] ? (example(o.op) ?? {}) : undefined;
      return (await callerFor(o)).request(o.method, o.path.replace(/\{[^}]+\}/g, "1"), body);
    });
    const withUnknownIds = await mismatches(async (o) => {
      if (!o.op.requestBody?.content?.["application/json"]) return null;
      return (await callerFor(o)).request(o.method, unknownPath(o), unknownIds(example(o.op) ?? {}));
    });
    const withUnknownQueryIds = await mismatches(async (o) => {
      const ids = (o.op.parameters ?? []).filter((p: any) => p.in === "query" && /(^|_)ids?$/.test(p.name));
      if (!ids.length) return null;
      const query = ids.map((p: any) => `${p.name}=999999`).join("&");
      return (await callerFor(o)).request(o.method, `${unknownPath(o)}?${query}`, o.op.requestBody ? (example(o.op) ?? {}) : undefined);
    });
    expect([...wrong, ...withKnownPath, ...withUnknownIds, ...withUnknownQueryIds]).toEqual([]);
  });

  test("a read-only access token: 403 TOKEN_READ_ONLY on writes, and only documented statuses anywhere", async () => {
    const created = await (await api.as.bob!.post("/auth/tokens", { name: "reader", scope: "read" })).json();
    const reader = api.client();
    const wrong = await mismatches(async (o) => {
      const body = o.op.requestBody?.content?.["application/json"] ? (example(o.op) ?? {}) : undefined;
      return reader.request(o.method, unknownPath(o), body, { authorization: `Bearer ${created.token}` });
    });
    expect(wrong).toEqual([]);
  });

  test("the public login documents no admin-only 403, only the cross-site refusal of a write; rule statuses say their codes", () => {
    const login = operations.find((o) => o.method === "POST" && o.path === "/auth/login")!;
    expect(login.op.responses["403"].description).toContain("CROSS_SITE_REQUEST");
    expect(login.op.responses["403"].description).not.toContain("ADMIN_REQUIRED");
    expect(login.op.responses["401"].description).toContain("INVALID_CREDENTIALS");
    const register = operations.find((o) => o.method === "POST" && o.path === "/auth/register")!;
    expect(register.op.responses["403"].description).toContain("REGISTRATION_DISABLED");
    expect(register.op.responses["409"].description).toContain("USER_EXISTS");
  });
});
