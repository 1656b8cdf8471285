import type { ToolCall, ToolCatalog } from '../../domain/index.js';
import type { CallIssue } from './callIssue.js';
import { issuesFromAjv } from './validation/ajvIssues.js';
import { catalogValidator } from './validation/catalogValidators.js';
import { floatLiteralIssues } from './validation/floatLiteralIssues.js';

/**
 * Check calls against a tool catalog's JSON Schemas (ajv, 2020-12, allErrors, formats). Each tool's schema is
 * compiled once per catalog object. A float literal (`5.0`) where the schema wants an integer is a
 * wrong_argument_type only when the call's float_literal_paths names it. Throws ToolSchemaError only when a
 * tool's schema itself does not compile (broken configuration).
 */
export function validateCalls(calls: readonly ToolCall[], catalog: ToolCatalog): CallIssue[] {
  const issues: CallIssue[] = [];
  const validators = catalogValidator(catalog);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i] as ToolCall;
    const validate = validators.forTool(call.tool_name);
    if (validate === undefined) {
      const message = unknownToolMessage(call.tool_name, catalog, validators.toolNames());
      issues.push({ call_index: i, tool_name: call.tool_name, path: '', error_code: 'unknown_tool', message });
      continue;
    }
    if (!validate(call.arguments)) issues.push(...issuesFromAjv(validate.errors ?? [], i, call.tool_name));
    if (call.float_literal_paths !== undefined) issues.push(...floatLiteralIssues(call, validate, i));
  }
  return issues;
}

const MAX_NAMES_SHOWN = 6;

function unknownToolMessage(name: string, catalog: ToolCatalog, names: readonly string[]): string {
  const head = `${name}: no such tool in catalog ${catalog.name}@${catalog.tool_schema_version}`;
  const guess = closestName(name, names);
  if (guess !== undefined) return `${head}; did you mean ${guess}?`;
  if (names.length === 0) return `${head} (the catalog has no tools)`;
  const shown = names.slice(0, MAX_NAMES_SHOWN).join(', ');
  return `${head} (it has ${shown}${names.length > MAX_NAMES_SHOWN ? `, … ${names.length} tools` : ''})`;
}

/** A likely intended name: same name ignoring case, or the last dotted part (`functions.get_x` -> `get_x`). */
function closestName(name: string, names: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const last = lower.slice(lower.lastIndexOf('.') + 1);
  return names.find((n) => n.toLowerCase() === lower) ?? names.find((n) => n.toLowerCase() === last);
}
