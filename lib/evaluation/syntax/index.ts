export { parseToolCalls } from './parseToolCalls.js';
export { validateCalls } from './validateCalls.js';
export { runSyntaxStage, type RunSyntaxStageOptions, type SyntaxDetails, type SyntaxStageOutput } from './runSyntaxStage.js';
export { OUTPUT_FORMATS, type OutputFormat, type ParseFailure, type ParseOutcome, type ParseSuccess } from './outcome.js';
export type { CallIssue } from './callIssue.js';
export { ToolSchemaError } from './validation/catalogValidators.js';
export { findFloatLiteralPaths, mayContainFloatLiteral } from './floatLiterals.js';
export { parsePythonCalls, type PythonCall, type PythonCallsResult } from './python/calls.js';
