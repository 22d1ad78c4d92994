import { expect, test } from "bun:test";
import { ApiError, buildUrl, toApiError } from "../../web/src/api/client.ts";
import { useApi } from "../helpers/server.ts";

// The web client's error handling, fed with real answers of the real server.
const api = useApi({ users: ["alice"] });

test("a 401 becomes an ApiError with the stable code", async () => {
  const e = await toApiError(await fetch(`${api.base}/brokers`));
  expect(e).toBeInstanceOf(ApiError);
  expect([e.status, e.code, e.message]).toEqual([401, "NOT_AUTHENTICATED", "Not authenticated"]);
});

test("a 422 keeps each issue and names the field it concerns", async () => {
  const res = await api.as.alice!.post("/brokers", [{ name: "" }]);
  const e = await toApiError(res);
  expect(e.status).toBe(422);
  expect(e.code).toBe("VALIDATION_ERROR");
  expect(e.issues.length).toBeGreaterThan(0);
  expect(e.fieldMessages("0.name").length).toBeGreaterThan(0);
  expect(e.message).toContain("0.name");
});

test("a body that is not the API's error shape still reads as a sentence", async () => {
  const e = await toApiError(new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" }));
  expect([e.status, e.code, e.message]).toEqual([502, "HTTP_502", "Bad Gateway"]);
});

test("paths and queries are encoded, arrays repeat their key", () => {
  expect(buildUrl("/brokers/{id}/access/{user_id}", { id: 3, user_id: 7 })).toBe("/api/v1/brokers/3/access/7");
  expect(buildUrl("/transactions", undefined, { types: ["BUY", "SELL"], broker_id: 2, asset_id: undefined }))
    .toBe("/api/v1/transactions?types=BUY&types=SELL&broker_id=2");
  expect(buildUrl("/fx/{pair}", { pair: "a/b c" })).toBe("/api/v1/fx/a%2Fb%20c");
  expect(() => buildUrl("/brokers/{id}", {})).toThrow("missing path parameter id");
});
