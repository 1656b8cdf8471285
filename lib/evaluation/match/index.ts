export { matchValue, matchArguments, createArgumentsMatcher, type ArgumentsMatcher } from './matchValue.js';
export { compareData, DEFAULT_DATA_RELATIVE_TOLERANCE, type CompareDataOptions } from './compareData.js';
export { resolveCoercionPolicy, type CoercionPolicySpec } from './resolveCoercionPolicy.js';
export { describeEntry, formatValue } from './describeEntry.js';
export { parseIsoInstant } from './isoDate.js';
export type { MatchContext, MatchResult } from './types.js';
export type { JsonSchema } from './schemaNav.js';
