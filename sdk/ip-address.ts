/**
 * IP address parsing and classification for the HTTP client's destination
 * check (no imports: the SDK may use only zod and decimal.js).
 */

/** A parsed IP address: 4 bytes (IPv4) or 16 bytes (IPv6). */
export interface IpAddress {
  readonly bytes: Uint8Array;
  readonly version: 4 | 6;
}

interface Range {
  readonly base: IpAddress;
  readonly label: string;
  readonly prefix: number;
}

export function parseIPv4(text: string): IpAddress | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    bytes[i] = Number(part);
  }
  return { bytes, version: 4 };
}

function groupsOf(text: string): number[] | null {
  if (text === "") return [];
  const out: number[] = [];
  const parts = text.split(":");
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes(".")) {
      const v4 = parseIPv4(part);
      if (!v4) return null;
      out.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) out.push(Number.parseInt(part, 16));
    else return null;
  }
  return out;
}

export function parseIPv6(raw: string): IpAddress | null {
  const text = raw.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => { bytes[2 * i] = g >> 8; bytes[2 * i + 1] = g & 0xff; });
  return { bytes, version: 6 };
}

/** Parses an IPv4 or IPv6 literal (brackets and a zone suffix allowed), or null for a host name. */
export function parseIp(text: string): IpAddress | null {
  return parseIPv4(text) ?? (text.includes(":") ? parseIPv6(text) : null);
}

/** Text form: dotted IPv4, or IPv6 as eight hex groups (not shortened). */
export function formatIp(ip: IpAddress): string {
  if (ip.version === 4) return [...ip.bytes].join(".");
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  return groups.join(":");
}

/** Parses `address/prefix` (e.g. `192.168.0.0/16`, `fd00::/8`), or null. */
export function parseCidr(text: string): { base: IpAddress; prefix: number } | null {
  const [address, bits, extra] = text.split("/");
  if (extra !== undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return null;
  const base = parseIp(address!);
  if (!base || Number(bits) > base.bytes.length * 8) return null;
  return { base, prefix: Number(bits) };
}

/** True when `ip` lies in `base/prefix` (same IP version only). */
export function inCidr(ip: IpAddress, base: IpAddress, prefix: number): boolean {
  if (ip.version !== base.version) return false;
  for (let bit = 0; bit < prefix; bit++) {
    const mask = 0x80 >> bit % 8;
    if ((ip.bytes[bit >> 3]! & mask) !== (base.bytes[bit >> 3]! & mask)) return false;
  }
  return true;
}

const range = (cidr: string, label: string): Range => ({ ...parseCidr(cidr)!, label });

const INTERNAL_V4: readonly Range[] = [
  range("0.0.0.0/8", "unspecified"), range("10.0.0.0/8", "private"), range("100.64.0.0/10", "carrier-grade NAT"),
  range("127.0.0.0/8", "loopback"), range("169.254.0.0/16", "link-local"), range("172.16.0.0/12", "private"),
  range("192.0.0.0/24", "reserved"), range("192.0.2.0/24", "reserved"), range("192.168.0.0/16", "private"),
  range("198.18.0.0/15", "reserved"), range("198.51.100.0/24", "reserved"), range("203.0.113.0/24", "reserved"),
  range("224.0.0.0/4", "multicast"), range("240.0.0.0/4", "reserved"),
];

const INTERNAL_V6: readonly Range[] = [
  range("::/128", "unspecified"), range("::1/128", "loopback"), range("100::/64", "reserved"),
  range("2001:db8::/32", "reserved"), range("fc00::/7", "private"), range("fe80::/10", "link-local"),
  range("fec0::/10", "private"), range("ff00::/8", "multicast"),
];

/** IPv6 forms that carry an IPv4 address in their last 4 bytes: IPv4-mapped, IPv4-compatible, NAT64. */
const EMBEDDING_V4: readonly Range[] = [range("::ffff:0:0/96", ""), range("::/96", ""), range("64:ff9b::/96", "")];

/** The IPv4 address inside an IPv4-mapped, IPv4-compatible or NAT64 IPv6 address, else the address itself. */
export function unwrapIp(ip: IpAddress): IpAddress {
  if (ip.version === 6 && EMBEDDING_V4.some((r) => inCidr(ip, r.base, r.prefix))) {
    const v4: IpAddress = { bytes: ip.bytes.slice(12), version: 4 };
    // `::` and `::1` are IPv6's own unspecified and loopback addresses, not embedded IPv4.
    if (!INTERNAL_V6.slice(0, 2).some((r) => inCidr(ip, r.base, r.prefix))) return v4;
  }
  return ip;
}

/**
 * Why `ip` is not a public destination (`loopback`, `private`, `link-local`,
 * `carrier-grade NAT`, `multicast`, `unspecified`, `reserved`), or null for a
 * public address. IPv4 embedded in IPv6 is judged as the IPv4 address.
 */
export function internalRange(ip: IpAddress): string | null {
  const plain = unwrapIp(ip);
  const ranges = plain.version === 4 ? INTERNAL_V4 : INTERNAL_V6;
  if (plain.version === 4 && plain.bytes.every((b) => b === 255)) return "broadcast";
  return ranges.find((r) => inCidr(plain, r.base, r.prefix))?.label ?? null;
}
