// The public surface of lib/evaluation/bfclCompat: BFCL's AST checker reproduced (compat: "bfcl").
export { bfclVerdict, bfclLanguageOf, possibleCalls, type DecodedOutput } from './bfclVerdict.js';
export { astChecker, simpleFunctionChecker, type AstCheck, type CheckResult } from './astChecker.js';
export { compatVerdictOf } from './compatVerdict.js';
export { standardizeString } from './standardize.js';
