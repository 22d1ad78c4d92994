import { formatIp, inCidr, type IpAddress, parseCidr, parseIp, unwrapIp } from "../../sdk/ip-address.ts";

/** The TCP peer of each request, recorded by the server wrapper (handlers only see the Request). */
const socketAddresses = new WeakMap<Request, string>();

export function rememberSocketAddress(request: Request, address: string | undefined): void {
  if (address) socketAddresses.set(request, address);
}

/** A TRUSTED_PROXIES entry: an address or a CIDR range. Unparsable entries never match. */
function trusts(entries: readonly string[], address: IpAddress): boolean {
  const plain = unwrapIp(address);
  return entries.some((entry) => {
    const cidr = entry.includes("/") ? parseCidr(entry) : null;
    if (cidr) return inCidr(plain, unwrapIp(cidr.base), cidr.prefix) || inCidr(address, cidr.base, cidr.prefix);
    const ip = parseIp(entry);
    return ip !== null && formatIp(unwrapIp(ip)) === formatIp(plain);
  });
}

const normalise = (text: string): string => {
  const ip = parseIp(text.trim());
  return ip ? formatIp(unwrapIp(ip)) : text.trim();
};

/**
 * The client's address (docs/security.md "Deployment: the reverse proxy"): the socket's, unless
 * the socket is a trusted reverse proxy (`TRUSTED_PROXIES`); then the right-most `X-Forwarded-For`
 * entry that is not itself a trusted proxy (entries further left are whatever the client claimed).
 * IPv4-mapped forms are unwrapped.
 */
export function clientAddress(request: Request, trustedProxies: readonly string[]): string | undefined {
  const socket = socketAddresses.get(request);
  const peer = socket ? parseIp(socket) : null;
  if (!socket || !peer || !trusts(trustedProxies, peer)) return socket ? normalise(socket) : undefined;
  const hops = (request.headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  for (const hop of [...hops].reverse()) {
    const ip = parseIp(hop);
    if (!ip) return hop.slice(0, 64);
    if (!trusts(trustedProxies, ip)) return formatIp(unwrapIp(ip));
  }
  return hops[0] ? normalise(hops[0]) : normalise(socket);
}
