import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import type { ProxyTrust } from '../config.ts';
import { nodeRequest, requestHeader } from './request.ts';

/**
 * Who sent a request, as the rate limit sees it: the connection's address, or behind trusted
 * proxies an X-Forwarded-For entry. Each proxy appends the address it received the request from,
 * so the entries are read from the right, and only as far as trusted proxies wrote them: anything
 * further left is the client's own claim, free to forge.
 */
export function clientAddressOf(trust: ProxyTrust): (c: Context) => string {
  const resolve = clientResolver(trust);
  return (c) => resolve(nodeRequest(c)?.socket.remoteAddress ?? 'unknown', requestHeader(c, 'x-forwarded-for'));
}

/**
 * The ranges a proxy of the shop's own is reached from when TRUST_PROXY gives only a number of
 * hops: loopback, the private networks (RFC 1918, IPv6 unique local), carrier-grade NAT (which
 * platforms' load balancers use) and link-local. A connection from anywhere else came straight
 * from the internet, past the proxies, and its X-Forwarded-For is the client's own claim.
 */
const PRIVATE_RANGES = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

/**
 * Whether a connection from `address` is one of the proxies in front, which carry the requests of
 * many clients: with `{hops: n}` (n > 0) a peer in a private or loopback range, with `{addresses}`
 * one of them.
 */
export function trustedPeer(trust: ProxyTrust): (address: string) => boolean {
  if ('hops' in trust && trust.hops === 0) return () => false;
  // Made here, not when the module is loaded: a service behind no proxy never needs the list.
  const proxies = blockListOf('hops' in trust ? PRIVATE_RANGES : trust.addresses);
  return (address) => inList(proxies, plain(address));
}

const LOOPBACK = blockListOf(['127.0.0.0/8', '::1/128']);

/** Whether a connection from `address` comes from this host: a local proxy, or any local process. */
export function isLoopback(address: string): boolean {
  return inList(LOOPBACK, plain(address));
}

/** Who the client is, from the connection's peer address and the request's X-Forwarded-For. */
export type ClientResolver = (socketAddress: string, forwardedFor: string | undefined) => string;

/**
 * - `{hops: n}`: n proxies in front, always (0: none), reached from a private or loopback address.
 *   The client is the n-th entry from the right, or the leftmost when there are fewer.
 * - `{addresses}`: proxies are the given addresses and CIDR ranges. Starting at the connection,
 *   every trusted address passes the question on to the entry left of it; the first address that
 *   is not trusted is the client (the leftmost entry when all are).
 * X-Forwarded-For is read only from a trusted peer, and only its entries that are IP addresses
 * count: anything else in it is ignored, so a forged header can neither pose as another client nor
 * make a client address of arbitrary text.
 */
export function clientResolver(trust: ProxyTrust): ClientResolver {
  const isProxy = trustedPeer(trust);
  if ('hops' in trust) {
    return (socket, forwardedFor) => {
      const peer = plain(socket);
      if (!isProxy(peer)) return peer;
      const entries = forwardedEntries(forwardedFor);
      if (entries.length === 0) return peer;
      return entries[Math.max(0, entries.length - trust.hops)]!;
    };
  }
  return (socket, forwardedFor) => {
    let client = plain(socket);
    if (!isProxy(client)) return client;
    const entries = forwardedEntries(forwardedFor);
    for (let i = entries.length - 1; i >= 0; i--) {
      client = entries[i]!;
      if (!isProxy(client)) return client;
    }
    return client;
  };
}

/** The entries of X-Forwarded-For that are IP addresses (every line of it, in order), IPv4-mapped IPv6 read as IPv4. */
function forwardedEntries(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((entry) => plain(entry.trim()))
    .filter((entry) => isIP(entry) !== 0);
}

function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function inList(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

function blockListOf(addresses: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of addresses) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}
