import type { OutboundPolicy } from './outboundPolicy.js';

const CATEGORIES = { loopback: 'allow_loopback', private: 'allow_private', 'link-local': 'allow_link_local' } as const;

/** A comma list; unset or blank is undefined (the default applies), `none` is the empty list. */
const list = (raw: string | undefined): string[] | undefined => {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.trim().toLowerCase() === 'none') return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
};

/**
 * The outbound policy from the platform-admin app settings:
 * - `EVALP_OUTBOUND_ALLOW`: comma list of `loopback`, `private`, `link-local` and host names / CIDRs allowed even
 *   inside a refused range, or `none`. Unset or blank: `loopback` on the embedded host (agents on localhost are the
 *   common case), nothing in Azure. Set, it replaces the default.
 * - `EVALP_OUTBOUND_DENY`: comma list of host names / CIDRs always refused.
 * Metadata addresses and the platform's own `selfPorts` on local addresses are refused whatever is set.
 */
export function outboundPolicyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  context: { backend: 'embedded' | 'azure'; selfPorts?: number[] },
): OutboundPolicy {
  const allow = list(env.EVALP_OUTBOUND_ALLOW) ?? (context.backend === 'embedded' ? ['loopback'] : []);
  const policy: OutboundPolicy = {
    allow_loopback: false,
    allow_private: false,
    allow_link_local: false,
    allow_hosts: [],
    deny_hosts: list(env.EVALP_OUTBOUND_DENY) ?? [],
    self_ports: context.selfPorts ?? [],
  };
  for (const entry of allow) {
    const flag = CATEGORIES[entry.toLowerCase() as keyof typeof CATEGORIES];
    if (flag) policy[flag] = true;
    else policy.allow_hosts.push(entry);
  }
  return policy;
}

/** Everything allowed but metadata and reserved addresses: for tests and tools that call only what they started. */
export const PERMISSIVE_OUTBOUND_POLICY: OutboundPolicy = {
  allow_loopback: true,
  allow_private: true,
  allow_link_local: true,
  allow_hosts: [],
  deny_hosts: [],
  self_ports: [],
};
