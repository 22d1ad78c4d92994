/**
 * Strict parser for a `WWW-Authenticate: Bearer ...` challenge (RFC 7235 §2.1, RFC 6750 §3),
 * narrowed for the container-image check, which trusts a challenge only when nothing in it is ambiguous:
 * - the scheme is `Bearer` (case-insensitive), followed by at least one space when parameters follow;
 * - parameters are comma-separated `key="value"` pairs, whitespace allowed around `,` and `=`;
 * - values must be quoted strings (token68 and bare token values are refused), with `\` escapes
 *   as RFC 7230 §3.2.6 quoted-pair;
 * - keys are compared case-insensitively and may not repeat; empty list elements and anything
 *   trailing (whitespace included) are refused.
 */

export type BearerChallengeResult =
  | { ok: true; params: ReadonlyMap<string, string> }
  | { ok: false; reason: string };

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const WS = /[ \t]/;

/** qdtext and the character after a backslash (RFC 7230 §3.2.6): HTAB, SP, VCHAR, obs-text. */
function isQuotedChar(ch: string, escaped: boolean): boolean {
  const c = ch.charCodeAt(0);
  if (c === 0x09 || c === 0x20) return true;
  if (c >= 0x80 && c <= 0xff) return true;
  if (c < 0x21 || c > 0x7e) return false;
  return escaped || (c !== 0x22 && c !== 0x5c);
}

class Cursor {
  pos = 0;
  constructor(readonly text: string) {}
  get done() { return this.pos >= this.text.length; }
  peek() { return this.text[this.pos] ?? ""; }
  skipWhitespace() { while (WS.test(this.peek()) && !this.done) this.pos++; }
  token(): string {
    const start = this.pos;
    while (!this.done && TCHAR.test(this.peek())) this.pos++;
    return this.text.slice(start, this.pos);
  }
  /** A quoted-string with its escapes resolved, or null when it is not one. */
  quoted(): string | null {
    if (this.peek() !== '"') return null;
    this.pos++;
    let value = "";
    while (!this.done) {
      const ch = this.text[this.pos++]!;
      if (ch === '"') return value;
      const escaped = ch === "\\";
      const next = escaped ? this.text[this.pos++] : ch;
      if (next === undefined || !isQuotedChar(next, escaped)) return null;
      value += next;
    }
    return null;
  }
}

export function parseBearerChallenge(header: string): BearerChallengeResult {
  const cur = new Cursor(header);
  const scheme = cur.token();
  if (scheme.toLowerCase() !== "bearer") return { ok: false, reason: "scheme is not Bearer" };
  const params = new Map<string, string>();
  if (cur.done) return { ok: true, params };
  if (cur.peek() !== " ") return { ok: false, reason: "scheme must be followed by a space" };
  cur.skipWhitespace();
  for (;;) {
    const key = cur.token().toLowerCase();
    if (key === "") return { ok: false, reason: `expected a parameter name at offset ${cur.pos}` };
    cur.skipWhitespace();
    if (cur.peek() !== "=") return { ok: false, reason: `parameter ${key} has no value (token68 is not accepted)` };
    cur.pos++;
    cur.skipWhitespace();
    const value = cur.quoted();
    if (value === null) return { ok: false, reason: `parameter ${key} must have a well-formed quoted value` };
    if (params.has(key)) return { ok: false, reason: `parameter ${key} is repeated` };
    params.set(key, value);
    if (cur.done) return { ok: true, params };
    cur.skipWhitespace();
    if (cur.done) return { ok: false, reason: "trailing whitespace" };
    if (cur.peek() !== ",") return { ok: false, reason: `unexpected character at offset ${cur.pos}` };
    cur.pos++;
    cur.skipWhitespace();
  }
}
