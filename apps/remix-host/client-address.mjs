// The client address a request's loaders and actions get (the load context's `clientAddress`, which the
// throttles count by): the socket's peer, or, only when that peer is a configured trusted proxy
// (`DOORWAY_TRUSTED_PROXIES`), the right-most address in `X-Forwarded-For` that is not itself a trusted
// proxy. A client writes what it likes into `X-Forwarded-For`; only the entries appended by proxies the host
// trusts are facts, and they are the right-most ones, so a forged header changes nothing.
import { BlockList, isIP } from 'node:net';

/** The variable that lists the trusted proxies. */
export const TRUSTED_PROXIES_VARIABLE = 'DOORWAY_TRUSTED_PROXIES';

/** The address given when the socket has none (it closed): the load context's `UNKNOWN_CLIENT`. */
export const UNKNOWN_CLIENT = 'unknown';

/** `::ffff:` and 32 bits written as two hex groups, the compressed form of an IPv4-mapped IPv6 address. */
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * An IP address in one spelling per address, or null when `text` is none: IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`, as a dual-stack socket reports an IPv4 peer) becomes the IPv4 address, IPv6 is
 * lower-case and compressed, and a port some proxies append (`1.2.3.4:5678`, `[::1]:5678`) is dropped.
 */
export function normalizeAddress(text) {
  let address = String(text).trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  const version = isIP(address);
  if (version === 4) return address;
  if (version !== 6) return null;
  let canonical = address.toLowerCase();
  try {
    // The URL parser writes an IPv6 host in its canonical (compressed, hex) form.
    canonical = new URL(`http://[${canonical}]/`).hostname.slice(1, -1);
  } catch {
    // A zone id (`fe80::1%eth0`) is no URL host: kept as written, lower-case.
  }
  const mapped = MAPPED_HEX.exec(canonical);
  if (mapped === null) return canonical;
  const high = Number.parseInt(mapped[1], 16);
  const low = Number.parseInt(mapped[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/**
 * The trusted proxies of `value` (comma-separated IP addresses or CIDR ranges, e.g.
 * `10.0.0.1, 10.1.0.0/16, fd00::/8`; empty or unset: none). Throws an Error naming the variable (and the
 * entry's position, never its text) for anything else, so a typo stops the server instead of trusting
 * nobody, or everybody.
 */
export function parseTrustedProxies(value, name = TRUSTED_PROXIES_VARIABLE) {
  const list = new BlockList();
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    const [written, prefix, extra] = entry.split('/');
    // A plain address only (no port, no brackets); an IPv4-mapped one counts as its IPv4 address.
    const address = isIP(written) === 0 ? null : normalizeAddress(written);
    const version = address === null ? 0 : isIP(address);
    const bits = prefix === undefined ? null : /^\d{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
    const mappedRange = bits !== null && version === 4 && isIP(written) === 6;
    const valid =
      version !== 0 &&
      extra === undefined &&
      !mappedRange &&
      (bits === null || bits <= (version === 4 ? 32 : 128));
    if (!valid) {
      throw new Error(
        `${name}: entry ${index + 1} is not an IP address or a CIDR range (e.g. 10.0.0.1, 10.0.0.0/8, fd00::/8)`,
      );
    }
    const type = version === 4 ? 'ipv4' : 'ipv6';
    if (bits === null) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  });
  return {
    size: entries.length,
    /** Whether `address` (normalized) is a trusted proxy. */
    has(address) {
      const version = isIP(address);
      if (version === 0 || entries.length === 0) return false;
      return list.check(address, version === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** No trusted proxy: the socket's peer is the client. */
export const NO_TRUSTED_PROXIES = parseTrustedProxies('');

/**
 * The client address of `req`: the socket's peer (normalized), or, when the peer is one of `trusted`, the
 * right-most `X-Forwarded-For` entry that is not; when every entry is a trusted proxy, the left-most of
 * them; when the entry a trusted proxy wrote is no address, the nearest trusted hop's address (never
 * anything the client wrote).
 */
export function clientAddress(req, trusted = NO_TRUSTED_PROXIES) {
  const peer = normalizeAddress(req.socket?.remoteAddress ?? '');
  if (peer === null) return UNKNOWN_CLIENT;
  if (!trusted.has(peer)) return peer;
  const header = req.headers?.['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  let nearest = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(hops[i]);
    if (hop === null) return nearest;
    if (!trusted.has(hop)) return hop;
    nearest = hop;
  }
  return nearest;
}
