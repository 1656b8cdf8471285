export {
  OutboundPolicySchema,
  OutboundRefusedError,
  checkUrlStatically,
  refuseAddress,
  type OutboundPolicy,
  type RefusalCategory,
} from './outboundPolicy.js';
export { checkOutboundUrl, createGuardedFetch, systemResolveAll, type ResolveAll, type ResolvedAddress } from './guardedFetch.js';
export { outboundPolicyFromEnv, PERMISSIVE_OUTBOUND_POLICY } from './outboundSettings.js';
export { createOutboundGuard, type OutboundGuard } from './outboundGuard.js';
