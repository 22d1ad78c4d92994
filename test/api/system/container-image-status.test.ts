import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { startFakeRegistry, tokenJson, type FakeRegistry } from "../../fakes/registry.ts";
import { ApiClient, expectError } from "../../helpers/client.ts";
import { startServer, type TestServer } from "../../helpers/server.ts";

// The container-image check: its steps, errors (image-*-request-failed), limits (5 s, no redirects),
// stable X.Y.Z tags only (a malformed tag → 422 INVALID_TAG) and its OpenAPI description.

const REPO = "acme/tracker";
let registry: FakeRegistry;
let server: TestServer;
let client: ApiClient;

beforeAll(async () => {
  registry = startFakeRegistry({ published: ["1.2.3"], repository: REPO });
  server = await startServer({ env: { CONTAINER_REGISTRY_URL: registry.url, CONTAINER_IMAGE_REPOSITORY: REPO } });
  client = new ApiClient(server.base);
  await client.signUp("root");
});
afterAll(async () => {
  await server.stop(true);
  await registry.stop();
});
beforeEach(() => registry.reset());

const path = (tag: string) => `/system/container-image-status?tag=${encodeURIComponent(tag)}`;
const manifestPath = (tag: string) => `/v2/${REPO}/manifests/${tag}`;

async function check(tag: string) {
  const res = await client.get(path(tag));
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(JSON.stringify(body)).not.toContain(registry.issuedToken);
  return body;
}

async function expectOutcome(tag: string, status: "published" | "pending") {
  const body = await check(tag);
  expect(body).toEqual({ tag, image: `${registry.host}/${REPO}:${tag}`, status, checked_at: expect.any(String) });
  expect(new Date(body.checked_at).toISOString()).toBe(body.checked_at);
  return body;
}

async function expectFailure(code: "image-auth-request-failed" | "image-request-failed", tag = "1.2.3") {
  const body = await check(tag);
  expect(body).toEqual({
    tag, image: `${registry.host}/${REPO}:${tag}`, status: "error", error_code: code, detail: expect.any(String),
    checked_at: expect.any(String),
  });
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

/** A challenge like the fake's own, with some parameters replaced. */
function challenge(over: { realm?: string; service?: string; scope?: string } = {}) {
  const realm = over.realm ?? `${registry.url}/token`;
  const service = over.service ?? registry.host;
  const scope = over.scope ?? `repository:${REPO}:pull`;
  return `Bearer realm="${realm}",service="${service}",scope="${scope}"`;
}

describe("access", () => {
  test("needs a session (401 without cookie)", async () => {
    const res = await fetch(`${server.base}${path("1.2.3")}`);
    await expectError(res, 401, "NOT_AUTHENTICATED");
    expect(registry.log).toEqual([]);
  });
});

describe("only stable X.Y.Z tags", () => {
  for (const tag of ["1.2", "v1.2.3", "1.2.3-rc1", "1.2.3+build.5", "01.2.3", "1.02.3", "1.2.03", "1.2.3.4", " 1.2.3", "1.2.3 ", "", "a.b.c", "1.2.3/../x"]) {
    test(`'${tag}' is refused with 422 INVALID_TAG before any registry request`, async () => {
      const body = await expectError(await client.get(path(tag)), 422, "INVALID_TAG");
      expect(typeof body.detail).toBe("string");
      expect(registry.log).toEqual([]);
    });
  }

  test("a missing tag is a query validation failure (422 VALIDATION_ERROR)", async () => {
    await expectError(await client.get("/system/container-image-status"), 422, "VALIDATION_ERROR");
  });

  test("zeros without leading zeros are a stable tag (0.1.0, 10.20.30)", async () => {
    await expectOutcome("0.1.0", "pending");
    await expectOutcome("10.20.30", "pending");
  });
});

describe("rules 2 to 5: the registry check", () => {
  test("published via the token flow, with the token sent as Bearer on the second HEAD", async () => {
    await expectOutcome("1.2.3", "published");
    const heads = registry.requests(manifestPath("1.2.3"));
    expect(heads.map((r) => r.method)).toEqual(["HEAD", "HEAD"]);
    expect(heads[0]!.authorization).toBeNull();
    expect(heads[1]!.authorization).toBe(`Bearer ${registry.issuedToken}`);
    for (const head of heads) {
      expect(head.accept).toContain("application/vnd.oci.image.index.v1+json");
      expect(head.accept).toContain("application/vnd.docker.distribution.manifest.v2+json");
    }
    const tokens = registry.requests("/token");
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.method).toBe("GET");
    expect(tokens[0]!.authorization).toBeNull();
    expect(tokens[0]!.query).toEqual({ scope: `repository:${REPO}:pull`, service: registry.host });
  });

  test("pending when the authenticated HEAD answers 404", async () => {
    await expectOutcome("9.9.9", "pending");
    expect(registry.requests("/token")).toHaveLength(1);
    expect(registry.requests(manifestPath("9.9.9")).map((r) => r.authorization)).toEqual([null, `Bearer ${registry.issuedToken}`]);
  });

  test("an anonymous 200 is final: published without touching /token", async () => {
    registry.behave({ anonymous: () => new Response(null, { status: 200 }) });
    await expectOutcome("1.2.3", "published");
    expect(registry.requests("/token")).toEqual([]);
    expect(registry.log).toHaveLength(1);
  });

  test("an anonymous 404 is final: pending without touching /token", async () => {
    registry.behave({ anonymous: () => new Response(null, { status: 404 }) });
    await expectOutcome("1.2.3", "pending");
    expect(registry.log).toHaveLength(1);
  });

  test("an anonymous 500 is final: error image-request-failed", async () => {
    registry.behave({ anonymous: () => new Response(null, { status: 500 }) });
    await expectFailure("image-request-failed");
    expect(registry.log).toHaveLength(1);
  });

  test("an anonymous 403 is final: error image-request-failed", async () => {
    registry.behave({ anonymous: () => new Response(null, { status: 403 }) });
    await expectFailure("image-request-failed");
  });
});

describe("every challenge deviation gives image-auth-request-failed and no token request", () => {
  const deviations: [string, () => string | null][] = [
    ["unquoted value", () => challenge().replace(`realm="${registry.url}/token"`, `realm=${registry.url}/token`)],
    ["token68 instead of parameters", () => "Bearer YWJjZGVm"],
    ["duplicate key", () => `${challenge()},scope="repository:${REPO}:pull"`],
    ["duplicate key in another case", () => `${challenge()},Realm="${registry.url}/token"`],
    ["trailing garbage", () => `${challenge()} x`],
    ["wrong realm host", () => challenge({ realm: `http://localhost:${new URL(registry.url).port}/token` })],
    ["foreign realm host", () => challenge({ realm: "http://evil.example/token" })],
    ["realm on another port", () => challenge({ realm: `http://127.0.0.1:${Number(new URL(registry.url).port) + 1}/token` })],
    ["realm on another scheme", () => challenge({ realm: `https://${registry.host}/token` })],
    ["realm not in canonical form", () => challenge({ realm: `HTTP://${registry.host}/token` })],
    ["realm with query", () => challenge({ realm: `${registry.url}/token?service=x` })],
    ["realm with empty query", () => challenge({ realm: `${registry.url}/token?` })],
    ["realm with credentials", () => challenge({ realm: `http://user:pass@${registry.host}/token` })],
    ["realm with fragment", () => challenge({ realm: `${registry.url}/token#x` })],
    ["realm path /auth", () => challenge({ realm: `${registry.url}/auth` })],
    ["realm path /token/", () => challenge({ realm: `${registry.url}/token/` })],
    ["relative realm", () => challenge({ realm: "/token" })],
    ["missing realm", () => `Bearer service="${registry.host}",scope="repository:${REPO}:pull"`],
    ["wrong service", () => challenge({ service: "ghcr.io" })],
    ["missing service", () => `Bearer realm="${registry.url}/token",scope="repository:${REPO}:pull"`],
    ["wrong scope repo", () => challenge({ scope: "repository:acme/other:pull" })],
    ["push scope", () => challenge({ scope: `repository:${REPO}:pull,push` })],
    ["push-only scope", () => challenge({ scope: `repository:${REPO}:push` })],
    ["missing scope", () => `Bearer realm="${registry.url}/token",service="${registry.host}"`],
    ["non-Bearer scheme", () => challenge().replace(/^Bearer/, "Basic")],
    ["missing header", () => null],
  ];
  for (const [name, make] of deviations) {
    test(name, async () => {
      registry.behave({ challenge: make() });
      await expectFailure("image-auth-request-failed");
      expect(registry.log.map((r) => r.path)).toEqual([manifestPath("1.2.3")]);
    });
  }

  test("the fake's own challenge is accepted (control)", async () => {
    registry.behave({ challenge: challenge() });
    await expectOutcome("1.2.3", "published");
  });
});

describe("the token must be a well-formed bearer token", () => {
  const deviations: [string, () => Response][] = [
    ["token endpoint 500", () => tokenJson({ token: "abc" }, 500)],
    ["token endpoint 401", () => tokenJson({ token: "abc" }, 401)],
    ["non-JSON body", () => new Response("token=abc", { headers: { "content-type": "text/plain" } })],
    ["JSON that is not an object", () => tokenJson(["abc"])],
    ["no token field", () => tokenJson({ expires_in: 300 })],
    ["token with a space", () => tokenJson({ token: "abc def", access_token: "abc def" })],
    ["token with a quote", () => tokenJson({ token: 'abc"def' })],
    ["empty token", () => tokenJson({ token: "" })],
    ["token that is not a string", () => tokenJson({ token: 12345 })],
    ["token differs from access_token", () => tokenJson({ token: "abc", access_token: "abd" })],
    ["redirect", () => new Response(null, { status: 302, headers: { location: `${registry.url}/token2` } })],
  ];
  for (const [name, make] of deviations) {
    test(name, async () => {
      registry.behave({ token: make });
      await expectFailure("image-auth-request-failed");
      expect(registry.requests("/token")).toHaveLength(1);
      expect(registry.requests("/token2")).toEqual([]);
      expect(registry.requests(manifestPath("1.2.3"))).toHaveLength(1);
    });
  }

  test("access_token alone is accepted; so is b64token padding", async () => {
    const token = "QWxhZGRpbjpvcGVuIHNlc2FtZQ==";
    registry.behave({
      token: () => tokenJson({ access_token: token }),
      authenticated: (req) => new Response(null, { status: req.headers.get("authorization") === `Bearer ${token}` ? 200 : 401 }),
    });
    await expectOutcome("1.2.3", "published");
  });
});

describe("the authenticated HEAD and its limits", () => {
  test("an authenticated 401 gives image-request-failed", async () => {
    registry.behave({ authenticated: () => new Response(null, { status: 401, headers: { "www-authenticate": registry.challenge } }) });
    await expectFailure("image-request-failed");
    expect(registry.requests("/token")).toHaveLength(1);
  });

  test("an authenticated 500 gives image-request-failed", async () => {
    registry.behave({ authenticated: () => new Response(null, { status: 500 }) });
    await expectFailure("image-request-failed");
  });

  test("a manifest redirect (302) is not followed: image-request-failed", async () => {
    const elsewhere = `${registry.url}/v2/${REPO}/manifests/elsewhere`;
    registry.behave({ anonymous: () => new Response(null, { status: 302, headers: { location: elsewhere } }) });
    await expectFailure("image-request-failed");
    expect(registry.log).toHaveLength(1);
  });

  test("an authenticated manifest redirect (307) is not followed: image-request-failed", async () => {
    const elsewhere = `${registry.url}/v2/${REPO}/manifests/elsewhere`;
    registry.behave({ authenticated: () => new Response(null, { status: 307, headers: { location: elsewhere } }) });
    await expectFailure("image-request-failed");
    expect(registry.requests(`/v2/${REPO}/manifests/elsewhere`)).toEqual([]);
  });

  test("a registry slower than 5 s gives an error outcome (timeout)", async () => {
    registry.behave({ delayMs: 6_000 });
    const body = await expectFailure("image-request-failed");
    expect(body.detail).toContain("timed out");
  }, 15_000);

  test("the token never reaches a response or a log line", async () => {
    await expectOutcome("1.2.3", "published");
    registry.behave({ authenticated: () => new Response(null, { status: 500 }) });
    await expectFailure("image-request-failed");
    expect(JSON.stringify(server.logs())).not.toContain(registry.issuedToken);
  });
});

describe("OpenAPI", () => {
  test("each union member pins status with a single-value enum, and there is no const", async () => {
    const doc = await (await fetch(`${server.base}/openapi.json`)).json();
    const op = doc.paths["/api/v1/system/container-image-status"].get;
    const root = op.responses["200"].content["application/json"].schema;
    // References point into the schema's own $defs or into components.schemas.
    const resolve = (s: any): any => {
      if (!s?.$ref) return s;
      const [, where, name] = /^#\/(\$defs|components\/schemas)\/(.+)$/.exec(s.$ref)!;
      return where === "$defs" ? root.$defs[name!] : doc.components.schemas[name!];
    };
    const schema = resolve(root);
    const members = (schema.oneOf ?? schema.anyOf).map(resolve);
    expect(members.map((m: any) => m.properties.status)).toEqual([
      expect.objectContaining({ enum: ["published"] }),
      expect.objectContaining({ enum: ["pending"] }),
      expect.objectContaining({ enum: ["error"] }),
    ]);
    for (const m of members) expect(m.required).toContain("status");
    expect(JSON.stringify([root, schema, ...members])).not.toContain('"const"');
    expect(op.parameters).toContainEqual(expect.objectContaining({ name: "tag", in: "query", required: true }));
  });
});
