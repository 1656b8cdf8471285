export { matchValue, matchArguments, createArgumentsMatcher, type ArgumentsMatcher } from './matchValue.js';
export { compareData, DEFAULT_DATA_RELATIVE_TOLERANCE, type CompareDataOptions } from './compareData.js';
export { describeEntry, formatValue } from './describeEntry.js';
export { parseIsoInstant } from './isoDate.js';
export type { MatchContext, MatchResult } from './matchState.js';
export type { JsonSchema } from './schemaNav.js';
export { assignmentTotal, maximizeAssignment } from './assignment.js';
