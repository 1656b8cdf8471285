import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { z } from 'zod';

/**
 * Which outbound destinations the platform may call (targets, alert webhooks, `/api/evaluate` endpoints, MCP
 * servers over HTTP). Cloud metadata and unspecified/multicast/reserved addresses are refused always; loopback,
 * private ranges and link-local only when allowed; `self_ports` are the platform's own listening ports, refused on
 * any local address even when loopback is allowed (its API and its durable webhooks).
 */
export const OutboundPolicySchema = z
  .object({
    allow_loopback: z.boolean(),
    /** RFC 1918, carrier-grade NAT 100.64/10, benchmarking 198.18/15, IPv6 unique-local fc00::/7 */
    allow_private: z.boolean(),
    /** 169.254/16 and fe80::/10 (metadata addresses in them stay refused) */
    allow_link_local: z.boolean(),
    /** host names or CIDRs allowed even inside a refused range (never metadata) */
    allow_hosts: z.array(z.string().min(1)),
    /** host names or CIDRs always refused */
    deny_hosts: z.array(z.string().min(1)),
    /** the platform's own ports: refused on loopback, unspecified and this machine's interface addresses */
    self_ports: z.array(z.number().int().min(1).max(65535)),
  })
  .strict();
export type OutboundPolicy = z.infer<typeof OutboundPolicySchema>;

export type RefusalCategory = 'scheme' | 'metadata' | 'reserved' | 'self' | 'loopback' | 'private' | 'link-local' | 'denied-host';

/** A destination the policy refuses; `reason` says why in a sentence a person can act on. */
export class OutboundRefusedError extends Error {
  override readonly name = 'OutboundRefusedError';
  constructor(
    readonly category: RefusalCategory,
    readonly reason: string,
  ) {
    super(`outbound request refused: ${reason}`);
  }
}

/** What a refusal of one address category tells the operator to do. */
const HINT: Partial<Record<RefusalCategory, string>> = {
  loopback: 'a loopback address (allowed only when EVALP_OUTBOUND_ALLOW includes "loopback")',
  private: 'a private-network address (allowed only when EVALP_OUTBOUND_ALLOW includes "private" or the host)',
  'link-local': 'a link-local address (allowed only when EVALP_OUTBOUND_ALLOW includes "link-local")',
};

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) addCidr(list, cidr, 'ipv4');
  for (const cidr of v6) addCidr(list, cidr, 'ipv6');
  return list;
}

function addCidr(list: BlockList, cidr: string, type: 'ipv4' | 'ipv6'): void {
  const [address = '', prefix] = cidr.split('/');
  if (prefix === undefined) list.addAddress(address, type);
  else list.addSubnet(address, Number(prefix), type);
}

/** Instance metadata services: AWS/GCP/Azure/OpenStack 169.254.169.254, AWS IPv6, Alibaba, Azure wireserver, Oracle. */
const METADATA = blockList(['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', '192.0.0.192'], ['fd00:ec2::254']);
const METADATA_NAMES = new Set([
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.com',
  'metadata.packet.net',
]);
const RESERVED = blockList(['0.0.0.0/8', '224.0.0.0/4', '240.0.0.0/4', '192.0.0.0/24'], ['::/128', 'ff00::/8', '100::/64']);
const LOOPBACK = blockList(['127.0.0.0/8'], ['::1/128']);
const PRIVATE = blockList(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '198.18.0.0/15'], ['fc00::/7']);
const LINK_LOCAL = blockList(['169.254.0.0/16'], ['fe80::/10']);

const typeOf = (address: string): 'ipv4' | 'ipv6' => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Host as the URL parser gives it, without IPv6 brackets and a trailing dot, lower case. */
export function normalHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

function matchesHost(entry: string, host: string, address: string | undefined): boolean {
  if (entry.includes('/') || isIP(entry) !== 0) {
    if (!address) return false;
    const list = new BlockList();
    try {
      addCidr(list, entry, entry.includes(':') ? 'ipv6' : 'ipv4');
    } catch {
      return false;
    }
    return list.check(address, typeOf(address));
  }
  const name = normalHost(entry);
  return host === name || (name.startsWith('.') && host.endsWith(name)) || host.endsWith(`.${name}`);
}

/** This machine's interface addresses (a listener on 0.0.0.0 answers on every one of them). */
function localAddresses(): Set<string> {
  const found = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) found.add(info.address.toLowerCase());
  return found;
}

/**
 * The verdict on one resolved address for a request to `host`:`port`; undefined when allowed. Order: metadata and
 * reserved (always refused), the platform itself, the deny list, the allow list, then the range categories.
 */
export function refuseAddress(address: string, port: number, host: string, policy: OutboundPolicy): OutboundRefusedError | undefined {
  const type = typeOf(address);
  const shown = host === address ? address : `${host} (${address})`;
  if (METADATA.check(address, type) || METADATA_NAMES.has(host)) {
    return new OutboundRefusedError('metadata', `${shown} is a cloud metadata address, which is never allowed`);
  }
  if (RESERVED.check(address, type))
    return new OutboundRefusedError('reserved', `${shown} is an unspecified, multicast or reserved address, which is never allowed`);
  const local = LOOPBACK.check(address, type) || localAddresses().has(address.toLowerCase());
  if (local && policy.self_ports.includes(port)) {
    return new OutboundRefusedError(
      'self',
      `${shown}:${port} is the platform's own address and port (its API and durable webhooks), which is never allowed`,
    );
  }
  if (policy.deny_hosts.some((entry) => matchesHost(entry, host, address)))
    return new OutboundRefusedError('denied-host', `${shown} is on the outbound deny list (EVALP_OUTBOUND_DENY)`);
  if (policy.allow_hosts.some((entry) => matchesHost(entry, host, address))) return undefined;
  const category: RefusalCategory | undefined = LOOPBACK.check(address, type)
    ? 'loopback'
    : PRIVATE.check(address, type)
      ? 'private'
      : LINK_LOCAL.check(address, type)
        ? 'link-local'
        : undefined;
  if (category === undefined) return undefined;
  const allowed = category === 'loopback' ? policy.allow_loopback : category === 'private' ? policy.allow_private : policy.allow_link_local;
  return allowed ? undefined : new OutboundRefusedError(category, `${shown} is ${HINT[category]}`);
}

export interface UrlTarget {
  url: URL;
  /** host name without brackets, lower case */
  host: string;
  port: number;
}

/**
 * The checks that need no DNS: an http(s) URL, not a metadata host name, and, when the host is an IP literal
 * (also in the decimal, hex and IPv4-mapped forms the URL parser normalises), the address verdict. `localhost`
 * and `*.localhost` are loopback whatever a resolver says. Throws OutboundRefusedError.
 */
export function checkUrlStatically(raw: string | URL, policy: OutboundPolicy): UrlTarget {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('scheme', 'the URL is not an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutboundRefusedError('scheme', `${url.protocol} URLs are refused: only http and https`);
  const host = normalHost(url.hostname);
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (METADATA_NAMES.has(host)) throw new OutboundRefusedError('metadata', `${host} is a cloud metadata host, which is never allowed`);
  const literal = isIP(host) !== 0 ? host : host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : undefined;
  if (literal !== undefined) {
    const refusal = refuseAddress(literal, port, host, policy);
    if (refusal) throw refusal;
  } else if (policy.deny_hosts.some((entry) => matchesHost(entry, host, undefined))) {
    throw new OutboundRefusedError('denied-host', `${host} is on the outbound deny list (EVALP_OUTBOUND_DENY)`);
  }
  return { url, host, port };
}
