import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { expectError } from "../../helpers/client.ts";
import { runCli } from "../../helpers/cli.ts";
import { queryDb } from "../../helpers/seed.ts";
import { useApi } from "../../helpers/server.ts";

// Login throttling per account and per client address (docs/security.md). The test client is the
// trusted reverse proxy (TRUSTED_PROXIES=127.0.0.1), so each test comes from its own address
// through X-Forwarded-For. Time "passes" by ending the stored block (blocked_until in the past).

// Every failed login costs a real argon2 verification; on a loaded machine a sequence takes seconds.
setDefaultTimeout(120_000);

const api = useApi({ users: ["admin"], env: { TRUSTED_PROXIES: "127.0.0.1" } });
const untrusted = useApi({ users: ["solo"] });
const PASSWORD = "Secret-pass1";

function from(address: string, base = api.base) {
  const post = (path: string, body: unknown, cookie = "") => fetch(`${base}${path}`, {
    method: "POST", body: JSON.stringify(body),
    headers: { "content-type": "application/json", "x-forwarded-for": address, ...(cookie ? { cookie } : {}) },
  });
  return {
    login: (username: string, password: string) => post("/auth/login", { username, password }),
    register: (username: string) => post("/auth/register", { username, email: `${username}@example.com`, password: PASSWORD }),
    post,
  };
}

/** Ends every block now, as if the waiting time had passed; the failure counts stay. */
const timePasses = (dataDir = api.dataDir) => queryDb(dataDir, "UPDATE login_throttle SET blocked_until = 0");

async function account(name: string): Promise<void> {
  expect((await from("198.51.100.200").register(name)).status).toBe(201);
}

async function expectThrottled(res: Response, retryAfter: number) {
  const body = await expectError(res, 429, "TOO_MANY_ATTEMPTS");
  expect(res.headers.get("retry-after")).toBe(String(retryAfter));
  expect(body.params).toEqual({ retry_after_seconds: retryAfter });
}

describe("per account", () => {
  test("five wrong passwords are answered; the sixth blocks for 1 s: 429 with Retry-After, even for the right password", async () => {
    await account("target1");
    const client = from("203.0.113.1");
    for (let i = 0; i < 6; i++) await expectError(await client.login("target1", "wrong-pass"), 401, "INVALID_CREDENTIALS");
    await expectThrottled(await client.login("target1", PASSWORD), 1);
    await expectThrottled(await from("203.0.113.2").login("target1@example.com", "wrong-pass"), 1);
  });

  test("the delay doubles with each further failure and is capped at 5 minutes", async () => {
    await account("target2");
    const client = from("203.0.113.3");
    for (let i = 0; i < 5; i++) await expectError(await client.login("target2", "wrong-pass"), 401);
    const seen: number[] = [];
    for (let i = 0; i < 11; i++) {
      await expectError(await client.login("target2", "wrong-pass"), 401, "INVALID_CREDENTIALS");
      const res = await client.login("target2", "wrong-pass");
      expect(res.status).toBe(429);
      seen.push(Number(res.headers.get("retry-after")));
      timePasses();
    }
    expect(seen).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]);
    expect((await client.login("target2", PASSWORD)).status).toBe(200);
  });

  test("a successful login resets the account's counter", async () => {
    await account("target3");
    const client = from("203.0.113.4");
    for (let i = 0; i < 5; i++) await expectError(await client.login("target3", "wrong-pass"), 401);
    expect((await client.login("target3", PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) await expectError(await client.login("target3", "wrong-pass"), 401, "INVALID_CREDENTIALS");
  });

  test("an unknown user name is throttled the same way, so throttling reveals no account", async () => {
    const client = from("203.0.113.5");
    for (let i = 0; i < 6; i++) await expectError(await client.login("nobody-here", "wrong-pass"), 401, "INVALID_CREDENTIALS");
    await expectThrottled(await client.login("nobody-here", "wrong-pass"), 1);
  });

  test("a password reset through the CLI lifts the account's block: the owner gets back in", async () => {
    await account("target4");
    const client = from("203.0.113.6");
    for (let i = 0; i < 6; i++) await client.login("target4", "wrong-pass");
    await expectThrottled(await client.login("target4", PASSWORD), 1);
    expect((await runCli(api.dataDir, "user", "reset-password", "target4", "Fresh-Passw0rd!")).code).toBe(0);
    expect((await client.login("target4", "Fresh-Passw0rd!")).status).toBe(200);
  });

  test("a password change with a wrong current password is throttled on the account too", async () => {
    await account("target5");
    const client = from("203.0.113.7");
    const cookie = (await client.login("target5", PASSWORD)).headers.getSetCookie()[0]!.split(";")[0]!;
    const change = () => client.post("/auth/change-password", { current_password: "wrong-pass", new_password: "Other-pass3" }, cookie);
    for (let i = 0; i < 6; i++) await expectError(await change(), 400, "INVALID_PASSWORD");
    await expectThrottled(await change(), 1);
  });
});

describe("per client address", () => {
  test("twenty failures from one address over many accounts block that address, not the others", async () => {
    const client = from("192.0.2.10");
    for (let i = 0; i < 21; i++) await expectError(await client.login(`spray-${i}`, "wrong-pass"), 401, "INVALID_CREDENTIALS");
    await expectThrottled(await client.login("spray-new", "wrong-pass"), 1);
    await expectError(await from("192.0.2.11").login("spray-new", "wrong-pass"), 401, "INVALID_CREDENTIALS");
  });

  test("logging in to one's own account does not wipe the address's failures", async () => {
    await account("sprayer");
    const client = from("192.0.2.12");
    for (let i = 0; i < 20; i++) await client.login(`other-${i}`, "wrong-pass");
    expect((await client.login("sprayer", PASSWORD)).status).toBe(200);
    await expectError(await client.login("other-x", "wrong-pass"), 401);
    await expectThrottled(await client.login("other-y", "wrong-pass"), 1);
  });

  test("without a trusted proxy, X-Forwarded-For is ignored: rotating it does not escape the block", async () => {
    for (let i = 0; i < 21; i++) {
      await expectError(await from(`198.18.0.${i}`, untrusted.base).login(`rot-${i}`, "wrong-pass"), 401, "INVALID_CREDENTIALS");
    }
    await expectThrottled(await from("198.18.1.1", untrusted.base).login("rot-new", "wrong-pass"), 1);
    expect(queryDb<{ key: string }>(untrusted.dataDir, "SELECT key FROM login_throttle WHERE key LIKE 'ip:%'")).toEqual([{ key: "ip:127.0.0.1" }]);
  });
});

describe("registration", () => {
  test("refusals that reveal an existing account count per address; then 429 with Retry-After", async () => {
    await account("taken");
    const client = from("192.0.2.20");
    for (let i = 0; i < 11; i++) await expectError(await client.register("taken"), 409, "USER_EXISTS");
    await expectThrottled(await client.register("brand-new-name"), 1);
    expect((await from("192.0.2.21").register("brand-new-name")).status).toBe(201);
  });
});
