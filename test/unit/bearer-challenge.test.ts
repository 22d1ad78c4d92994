import { describe, expect, test } from "bun:test";
import { parseBearerChallenge } from "../../core/system/bearer-challenge.ts";

const GHCR = 'Bearer realm="https://ghcr.io/token",service="ghcr.io",scope="repository:acme/tracker:pull"';

function params(header: string): Record<string, string> {
  const result = parseBearerChallenge(header);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return Object.fromEntries(result.params);
}

function refused(header: string): string {
  const result = parseBearerChallenge(header);
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.reason;
}

describe("Bearer challenge parser (container-image check)", () => {
  test("parses the ghcr.io challenge into lower-case keys", () => {
    expect(params(GHCR)).toEqual({
      realm: "https://ghcr.io/token",
      service: "ghcr.io",
      scope: "repository:acme/tracker:pull",
    });
  });

  test("the scheme is Bearer, case-insensitive; other schemes are refused", () => {
    expect(params('bearer realm="r"')).toEqual({ realm: "r" });
    expect(params('BEARER realm="r"')).toEqual({ realm: "r" });
    expect(refused('Basic realm="r"')).toContain("scheme");
    expect(refused('Bearerx realm="r"')).toContain("scheme");
    expect(refused('Bearer,realm="r"')).toContain("space");
    expect(refused("")).toContain("scheme");
    expect(refused(' Bearer realm="r"')).toContain("scheme");
  });

  test("a bare Bearer has no parameters", () => {
    expect(params("Bearer")).toEqual({});
  });

  test("parameter keys are case-insensitive", () => {
    expect(params('Bearer Realm="r",SERVICE="s"')).toEqual({ realm: "r", service: "s" });
  });

  test("whitespace is allowed around commas and equals signs", () => {
    expect(params('Bearer  realm = "r" ,  service="s",scope="x"')).toEqual({ realm: "r", service: "s", scope: "x" });
    expect(params('Bearer realm="r",\tservice="s"')).toEqual({ realm: "r", service: "s" });
  });

  test("values must be quoted: unquoted token values and token68 are refused", () => {
    expect(refused('Bearer realm=https://ghcr.io/token,service="ghcr.io"')).toContain("realm");
    expect(refused('Bearer realm="r",service=ghcr.io')).toContain("service");
    expect(refused("Bearer abc123==")).toContain("quoted");
    expect(refused("Bearer abc123")).toContain("token68");
    expect(refused('Bearer realm=""r""')).toBeTruthy();
  });

  test("duplicate keys are refused, also when they differ in case", () => {
    expect(refused('Bearer realm="a",realm="a"')).toContain("repeated");
    expect(refused('Bearer realm="a",REALM="b"')).toContain("repeated");
  });

  test("backslash escapes are resolved as RFC 7230 quoted-pairs", () => {
    expect(params('Bearer realm="a\\"b\\\\c\\d"')).toEqual({ realm: 'a"b\\cd' });
    expect(params('Bearer realm="with space\\ and\ttab"')).toEqual({ realm: "with space and\ttab" });
    expect(params('Bearer realm="",scope="x"')).toEqual({ realm: "", scope: "x" });
  });

  test("unterminated strings, dangling escapes and control characters are refused", () => {
    refused('Bearer realm="abc');
    refused('Bearer realm="abc\\');
    refused('Bearer realm="a\u0000b"');
    refused('Bearer realm="a\nb"');
    refused('Bearer realm="a\\\u0001"');
    refused('Bearer realm="a\u007fb"');
  });

  test("nothing may trail the last parameter; empty list elements are refused", () => {
    expect(refused(`${GHCR},`)).toContain("parameter name");
    expect(refused(`${GHCR} `)).toContain("trailing");
    expect(refused(`${GHCR} x`)).toContain("offset");
    expect(refused(`${GHCR}"`)).toContain("offset");
    expect(refused('Bearer realm="a",,scope="b"')).toContain("parameter name");
    expect(refused("Bearer ")).toContain("parameter name");
    expect(refused('Bearer realm="a" scope="b"')).toContain("offset");
  });

  test("a second challenge in the same header is refused", () => {
    refused(`${GHCR}, Basic realm="x"`);
  });

  test("keys must be tokens", () => {
    refused('Bearer re@lm="a"');
    refused('Bearer ="a"');
  });
});
