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
 * - `{hops: n}`: n proxies in front, always (0: none). The client is the n-th entry from the right,
 *   or the leftmost when there are fewer.
 * - `{addresses}`: proxies are the given addresses and CIDR ranges. Starting at the connection,
 *   every trusted address passes the question on to the entry left of it; the first address that
 *   is not trusted is the client (the leftmost entry when all are).
 */
export function clientResolver(trust: ProxyTrust): (socketAddress: string, forwardedFor: string | undefined) => string {
  if ('hops' in trust) {
    if (trust.hops === 0) return (socket) => plain(socket);
    return (socket, forwardedFor) => {
      const entries = forwardedEntries(forwardedFor);
      if (entries.length === 0) return plain(socket);
      return entries[Math.max(0, entries.length - trust.hops)]!;
    };
  }
  const proxies = blockListOf(trust.addresses);
  const trusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && proxies.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  return (socket, forwardedFor) => {
    let client = plain(socket);
    if (!trusted(client)) return client;
    const entries = forwardedEntries(forwardedFor);
    for (let i = entries.length - 1; i >= 0; i--) {
      client = entries[i]!;
      if (!trusted(client)) return client;
    }
    return client;
  };
}

/** The entries of X-Forwarded-For (every line of it, in order), IPv4-mapped IPv6 read as IPv4. */
function forwardedEntries(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((entry) => plain(entry.trim()))
    .filter((entry) => entry !== '');
}

function plain(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
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
