/** Reads the claims of a JWT without verifying it (tests only). */
export function jwtClaims(token: string): Record<string, any> {
  const payload = token.split(".")[1]!;
  return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
}

/** The session token inside a "session=<token>" cookie pair. */
export function tokenOf(cookie: string): string {
  return cookie.replace(/^session=/, "");
}
