import { BlockList, isIP } from 'node:net';
import type { LookupAddress } from 'node:dns';

// Addresses a fetch driven by the model must not reach unless the user named the host: loopback,
// private networks, link-local (cloud metadata at 169.254.169.254), and the ranges that alias them.
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['100::', 64],
  // IPv4 inside IPv6 (compatible, mapped, translated, local-use NAT64, 6to4, Teredo): each can carry
  // 127.0.0.1, so none is trusted.
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 32],
] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address (v4 or v6, no brackets) is loopback, private, link-local or otherwise not public. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return true; // not an address at all: fail closed
}

/** A URL's hostname without IPv6 brackets, lower-case (WHATWG URL already turned `0x7f000001` into `127.0.0.1`). */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

export type Lookup = (host: string) => Promise<LookupAddress[]>;

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

/**
 * The addresses to connect to for `host`, after DNS: every one must be public unless `allowPrivate`
 * (a rule names the host). Throws BlockedAddressError naming the host and the address.
 */
export async function resolveAllowed(host: string, lookup: Lookup, allowPrivate: boolean): Promise<LookupAddress> {
  const literal = isIP(host);
  const addresses = literal !== 0 ? [{ address: host, family: literal }] : await lookup(host);
  const first = addresses[0];
  if (!first) throw new Error(`${host} has no address`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      const via = literal !== 0 ? '' : ` (resolves to ${bad.address})`;
      throw new BlockedAddressError(
        `${host}${via} is a loopback, private or link-local address; web_fetch reaches such hosts only when a rule names them, e.g. WebFetch(domain:${host})`,
      );
    }
  }
  return first;
}
