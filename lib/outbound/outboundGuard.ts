import { checkOutboundUrl, createGuardedFetch, systemResolveAll, type ResolveAll } from './guardedFetch.js';
import type { OutboundPolicy } from './outboundPolicy.js';

/** The platform's one gate for outbound HTTP: the policy, the fetch that enforces it, and the configuration-time check. */
export interface OutboundGuard {
  readonly policy: OutboundPolicy;
  /** use for every outbound call (targets, alert webhooks, compat jobs) */
  readonly fetch: typeof globalThis.fetch;
  /** where a URL is configured: throws OutboundRefusedError naming the reason */
  check(url: string): Promise<void>;
}

export function createOutboundGuard(policy: OutboundPolicy, resolve: ResolveAll = systemResolveAll): OutboundGuard {
  return { policy, fetch: createGuardedFetch(policy, { resolve }), check: (url) => checkOutboundUrl(url, policy, resolve) };
}
