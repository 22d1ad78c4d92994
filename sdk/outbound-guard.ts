import { PluginError } from "./errors.ts";
import { formatIp, inCidr, internalRange, type IpAddress, parseCidr, parseIp, unwrapIp } from "./ip-address.ts";

/** Host name to addresses, e.g. a DNS lookup. The client connects to the first address it returns. */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

/**
 * Entries of the outbound allow-list: a host name (`nas.lan`), an IP address
 * (`192.168.1.20`, `::1`), either with a port (`nas.lan:8080`,
 * `127.0.0.1:4010`, `[::1]:4010`), or a CIDR range (`192.168.0.0/16`).
 */
export type AllowedDestinations = () => readonly string[] | Promise<readonly string[]>;

/** Where one request may go: the address to connect to, already checked. */
export interface CheckedDestination {
  readonly address: IpAddress | null;
  readonly url: URL;
}

interface Entry {
  readonly cidr?: { base: IpAddress; prefix: number };
  readonly host?: string;
  readonly ip?: IpAddress;
  readonly port?: string;
}

function parseEntry(raw: string): Entry | null {
  const text = raw.trim().toLowerCase();
  if (text === "") return null;
  if (text.includes("/")) {
    const cidr = parseCidr(text);
    return cidr ? { cidr } : null;
  }
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    const ip = parseIp(bracketed[1]!);
    return ip ? { ip, port: bracketed[2] } : null;
  }
  const ip = parseIp(text);
  if (ip) return { ip };
  const [host, port, extra] = text.split(":");
  if (extra !== undefined || (port !== undefined && !/^\d+$/.test(port))) return null;
  return parseIp(host!) ? { ip: parseIp(host!)!, port } : { host, port };
}

const sameIp = (a: IpAddress, b: IpAddress) => formatIp(unwrapIp(a)) === formatIp(unwrapIp(b));

function allowedBy(entry: Entry, url: URL, address: IpAddress): boolean {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  if (entry.port !== undefined && entry.port !== port) return false;
  if (entry.cidr) return inCidr(unwrapIp(address), unwrapIp(entry.cidr.base), entry.cidr.prefix) || inCidr(address, entry.cidr.base, entry.cidr.prefix);
  if (entry.ip) return sameIp(entry.ip, address);
  return entry.host === url.hostname.toLowerCase();
}

function refused(url: URL, why: string): PluginError {
  return new PluginError("blocked", `request to ${url.origin} refused: ${why}`);
}

async function addressesOf(hostname: string, lookup: HostLookup | undefined): Promise<string[]> {
  if (lookup) return [...(await lookup(hostname))];
  const bun = (globalThis as { Bun?: { dns: { lookup(h: string): Promise<{ address: string }[]> } } }).Bun;
  if (!bun) throw new PluginError("unavailable", `no resolver for ${hostname}`);
  return (await bun.dns.lookup(hostname)).map((a) => a.address);
}

/**
 * Checks one request's destination before it is sent: only http and https;
 * the host name is resolved here and every address it resolves to must be
 * public, unless the allow-list admits it. Returns the first address, which
 * the caller connects to (no second lookup, so no gap for DNS rebinding).
 * `resolve: false` (an injected fetch decides where names go) checks IP
 * literals only. Throws a `PluginError` with reason `blocked`.
 */
export async function checkDestination(
  url: URL,
  options: { allowed?: AllowedDestinations; lookup?: HostLookup; resolve: boolean },
): Promise<CheckedDestination> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refused(url, `the ${url.protocol} scheme is not allowed (http and https only)`);
  if (url.username || url.password) throw refused(url, "credentials in the URL are not allowed");
  const literal = parseIp(url.hostname);
  if (!literal && !options.resolve && !options.lookup) return { address: null, url };
  let texts: string[];
  try {
    texts = literal ? [formatIp(literal)] : await addressesOf(url.hostname, options.lookup);
  } catch (cause) {
    if (cause instanceof PluginError) throw cause;
    throw new PluginError("unavailable", `${url.origin} could not be resolved`, { cause });
  }
  const addresses = texts.map(parseIp).filter((a): a is IpAddress => a !== null);
  if (addresses.length === 0) throw new PluginError("unavailable", `${url.origin} has no address`);
  const entries = (await (options.allowed?.() ?? [])).map(parseEntry).filter((e): e is Entry => e !== null);
  for (const address of addresses) {
    const why = internalRange(address);
    if (why && !entries.some((entry) => allowedBy(entry, url, address))) {
      throw refused(url, `${formatIp(unwrapIp(address))} is a ${why} address (an administrator can allow it in outbound_allowed_hosts)`);
    }
  }
  return { address: addresses[0]!, url };
}

/** The URL to connect to: the checked address in place of the host name. */
export function pinnedUrl(destination: CheckedDestination): string {
  const { address, url } = destination;
  if (!address) return url.href;
  const pinned = new URL(url.href);
  pinned.hostname = address.version === 6 ? `[${formatIp(address)}]` : formatIp(address);
  return pinned.href;
}
