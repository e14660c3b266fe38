import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which addresses a document fetch may connect to. IPv4: everything but the IANA special-purpose
 * ranges that are not globally reachable. IPv6: only global unicast (2000::/3), minus its
 * documentation and protocol ranges; addresses that carry an IPv4 address (IPv4-mapped, NAT64,
 * 6to4) are judged by that IPv4 address. An address this module cannot parse is not public.
 */

/** The name of the range an address falls in, or null when it is public. Names are for logs and tests. */
export type AddressRange = string;

// [first octets, prefix length, name]; broadcast before the reserved block that contains it.
const V4_RANGES: ReadonlyArray<readonly [string, number, AddressRange]> = [
  ['0.0.0.0', 8, 'this-network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'ietf-protocol'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4-relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V4_TABLE = V4_RANGES.map(([base, bits, name]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { network: (ipv4ToInt(base) & mask) >>> 0, mask, name };
});

function ipv4ToInt(address: string): number {
  const [a, b, c, d] = address.split('.').map(Number) as [number, number, number, number];
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function classifyIPv4Int(value: number): AddressRange | null {
  for (const { network, mask, name } of V4_TABLE) if ((value & mask) >>> 0 === network) return name;
  return null;
}

/** 16 bytes of an IPv6 address (zone id dropped), or null when it is not one. */
export function parseIPv6(input: string): Uint8Array | null {
  const address = input.replace(/%.*$/, '');
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  // A trailing dotted quad (::ffff:127.0.0.1) becomes two hex groups.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    const v = ipv4ToInt(quad[1]!);
    text = `${text.slice(0, quad.index)}${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  const all = [...left, ...fill, ...right];
  if (all.length !== 8) return null;
  const bytes = new Uint8Array(16);
  all.forEach((group, i) => {
    const v = parseInt(group, 16);
    bytes[i * 2] = v >> 8;
    bytes[i * 2 + 1] = v & 0xff;
  });
  return bytes;
}

function bytesToIPv4Int(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const i = bit / 8;
    const take = Math.min(8, bits - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((bytes[i]! & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyIPv6Bytes(b: Uint8Array): AddressRange | null {
  const zeroTo = (n: number) => b.subarray(0, n).every((x) => x === 0);
  // Addresses that carry an IPv4 address are as public as that address.
  if (zeroTo(10) && b[10] === 0xff && b[11] === 0xff) {
    const inner = classifyIPv4Int(bytesToIPv4Int(b, 12));
    return inner === null ? null : `ipv4-mapped ${inner}`;
  }
  if (startsWith(b, [0x00, 0x64, 0xff, 0x9b], 96)) {
    const inner = classifyIPv4Int(bytesToIPv4Int(b, 12));
    return inner === null ? null : `nat64 ${inner}`;
  }
  if (startsWith(b, [0x20, 0x02], 16)) {
    const inner = classifyIPv4Int(bytesToIPv4Int(b, 2));
    return inner === null ? null : `6to4 ${inner}`;
  }
  if (zeroTo(15) && b[15] === 0) return 'unspecified';
  if (zeroTo(15) && b[15] === 1) return 'loopback';
  if (zeroTo(12)) return 'ipv4-compatible';
  if (startsWith(b, [0xfc], 7)) return 'unique-local';
  if (startsWith(b, [0xfe, 0x80], 10)) return 'link-local';
  if (startsWith(b, [0xfe, 0xc0], 10)) return 'site-local';
  if (startsWith(b, [0xff], 8)) return 'multicast';
  // Only global unicast is reachable on the internet; inside it, a few blocks are not.
  if (!startsWith(b, [0x20], 3)) return 'reserved';
  if (startsWith(b, [0x20, 0x01, 0x0d, 0xb8], 32)) return 'documentation';
  if (startsWith(b, [0x3f, 0xff], 20)) return 'documentation';
  if (startsWith(b, [0x20, 0x01], 23)) return 'ietf-protocol'; // Teredo, benchmarking, ORCHID...
  return null;
}

/**
 * The special range `address` (an IP literal as `dns.lookup` returns it) falls in, or null when it
 * is a public address a fetch may connect to.
 */
export function nonPublicRange(address: string): AddressRange | null {
  if (isIPv4(address)) return classifyIPv4Int(ipv4ToInt(address));
  const bytes = parseIPv6(address);
  return bytes === null ? 'unparsable' : classifyIPv6Bytes(bytes);
}

export function isPublicAddress(address: string): boolean {
  return nonPublicRange(address) === null;
}
