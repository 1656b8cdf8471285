import {
  isMatcherObject,
  representativeValue,
  type CatalogBreak,
  type ExpectedToolCall,
  type ExpectedValue,
  type JsonObject,
  type TestCase,
  type ToolCatalog,
  type ToolDefinition,
} from '../../domain/index.js';
import { validateCalls } from '../../evaluation/index.js';
import { expectedCallsOf } from './caseCalls.js';

type Schema = Record<string, unknown>;

/**
 * Why a case no longer validates against `next` (a new version of a tool catalog), per expected call and parameter.
 * `previous` is the version the case validates against today (its pin or reference); with it, breaks are named by
 * what changed between the versions (a renamed parameter, a new required one, a removed tool, a type change) and a
 * migration step is suggested where one can be inferred. Arguments whose expected value is `$any`/`$from` (unknown
 * until the run) are checked for presence only. Empty: the case validates.
 */
export function caseCatalogBreaks(testCase: TestCase, previous: ToolCatalog | undefined, next: ToolCatalog): CatalogBreak[] {
  const breaks: CatalogBreak[] = [];
  const oldNames = new Set(previous?.tools.map((t) => t.name) ?? []);
  for (const { at, call } of expectedCallsOf(testCase)) {
    const tool = next.tools.find((t) => t.name === call.tool_name);
    const oldTool = previous?.tools.find((t) => t.name === call.tool_name);
    if (!tool) {
      breaks.push(missingTool(at, call, oldTool, next, oldNames));
      continue;
    }
    breaks.push(...argumentBreaks(at, call, oldTool, tool, next));
  }
  return breaks;
}

function missingTool(
  at: string,
  call: ExpectedToolCall,
  oldTool: ToolDefinition | undefined,
  next: ToolCatalog,
  oldNames: ReadonlySet<string>,
): CatalogBreak {
  const wanted = oldTool ? sortedKeys(propertiesOf(oldTool)) : Object.keys(call.arguments).sort();
  const candidates = next.tools.filter((t) => {
    if (oldNames.has(t.name)) return false;
    const keys = sortedKeys(propertiesOf(t));
    return oldTool ? keys.join('\u0000') === wanted.join('\u0000') : wanted.every((k) => keys.includes(k));
  });
  const where = `${next.name}@${next.tool_schema_version}`;
  if (candidates.length === 1) {
    const to = candidates[0]!.name;
    return {
      kind: 'tool_renamed',
      call: at,
      tool: call.tool_name,
      message: `tool "${call.tool_name}" is not in ${where}; "${to}" is new there with the same parameters (renamed?)`,
      suggestion: { op: 'rename_tool', from: call.tool_name, to },
    };
  }
  return {
    kind: 'tool_removed',
    call: at,
    tool: call.tool_name,
    message: `tool "${call.tool_name}" was removed: ${where} has no such tool`,
  };
}

function argumentBreaks(
  at: string,
  call: ExpectedToolCall,
  oldTool: ToolDefinition | undefined,
  tool: ToolDefinition,
  next: ToolCatalog,
): CatalogBreak[] {
  const out: CatalogBreak[] = [];
  const props = propertiesOf(tool);
  const oldProps = oldTool ? propertiesOf(oldTool) : undefined;
  const required = requiredOf(tool);
  const oldRequired = oldTool ? requiredOf(oldTool) : undefined;
  const args = call.arguments;
  const given = new Set(Object.keys(args));
  const declaresProperties = Object.keys(props).length > 0 || tool.parameters['additionalProperties'] === false;
  const renameTargets = new Set<string>();
  const where = `${next.name}@${next.tool_schema_version}`;
  for (const name of Object.keys(args)) {
    if (name in props || !declaresProperties) continue;
    const before = oldProps?.[name];
    const candidates = likelyNewNames(
      name,
      Object.keys(props).filter(
        (p) => !given.has(p) && !(oldProps && p in oldProps) && !renameTargets.has(p) && sameType(before, props[p], args[name] ?? null),
      ),
      (p) => required.includes(p) === (oldRequired?.includes(name) ?? required.includes(p)),
    );
    if (candidates.length === 1) {
      const to = candidates[0]!;
      renameTargets.add(to);
      out.push({
        kind: 'parameter_renamed',
        call: at,
        tool: call.tool_name,
        parameter: name,
        message: `${call.tool_name}: parameter "${name}" is not in ${where}; "${to}" is new there with the same type (renamed?)`,
        suggestion: { op: 'rename_argument', tool: call.tool_name, from: name, to },
      });
    } else {
      out.push({
        kind: 'parameter_removed',
        call: at,
        tool: call.tool_name,
        parameter: name,
        message: `${call.tool_name}: parameter "${name}" was removed (${where} does not declare it)`,
      });
    }
  }
  for (const name of required) {
    if (given.has(name) || renameTargets.has(name)) continue;
    const wasRequired = oldRequired?.includes(name) ?? false;
    const fallback = (props[name] as Schema | undefined)?.['default'];
    out.push({
      kind: wasRequired ? 'schema_violation' : 'required_parameter_added',
      call: at,
      tool: call.tool_name,
      parameter: name,
      message: wasRequired
        ? `${call.tool_name}: required parameter "${name}" is missing (it was required before too)`
        : `${call.tool_name}: ${where} requires the new parameter "${name}", which the case does not give`,
      ...(fallback !== undefined
        ? { suggestion: { op: 'add_default' as const, tool: call.tool_name, argument: name, value: fallback as ExpectedValue } }
        : {}),
    });
  }
  // values: only arguments with a concrete expected value, checked by the new schema (as stage 1 would)
  const concrete: JsonObject = {};
  for (const [name, value] of Object.entries(args)) if (isConcrete(value)) concrete[name] = representativeValue(value);
  for (const issue of validateCalls([{ tool_name: call.tool_name, arguments: concrete }], next)) {
    if (issue.error_code === 'missing_required_argument' || /^unexpected argument/.test(issue.message.replace(/^[^:]*: /, ''))) continue;
    const top = decodeURIComponent(issue.path.split('/')[1] ?? '');
    if (!(top in concrete)) continue;
    const oldType = (oldProps?.[top] as Schema | undefined)?.['type'];
    const newType = (props[top] as Schema | undefined)?.['type'];
    const typeChanged =
      issue.error_code === 'wrong_argument_type' && oldProps !== undefined && JSON.stringify(oldType) !== JSON.stringify(newType);
    out.push({
      kind: typeChanged ? 'type_changed' : 'schema_violation',
      call: at,
      tool: call.tool_name,
      parameter: issue.path.slice(1) || top,
      message: typeChanged
        ? `${call.tool_name}: parameter "${top}" changed type from ${typeText(oldType)} to ${typeText(newType)}; the case's value does not fit (${issue.message.replace(/^[^:]*: /, '')})`
        : issue.message,
    });
  }
  return out;
}

/**
 * The new parameters that may be `name` renamed, from those of the same type: when several, the ones whose name
 * contains the old one or is contained in it (`customer` -> `customer_id`) or shares a word of 3+ letters with it
 * (`order_id` -> `order_ref`), then the ones as required as it was.
 */
function likelyNewNames(name: string, sameTyped: readonly string[], sameRequiredness: (p: string) => boolean): string[] {
  if (sameTyped.length <= 1) return [...sameTyped];
  const lower = name.toLowerCase();
  const words = new Set(wordsOf(name));
  const similar = sameTyped.filter(
    (p) => p.toLowerCase().includes(lower) || lower.includes(p.toLowerCase()) || wordsOf(p).some((w) => words.has(w)),
  );
  const pool = similar.length > 0 ? similar : [...sameTyped];
  if (pool.length <= 1) return pool;
  const alike = pool.filter(sameRequiredness);
  return alike.length > 0 ? alike : pool;
}

/** The words of a parameter name (snake_case, kebab-case, camelCase), lower-cased, 3+ letters. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);
}

/** A value known before the run (not `$any`, not `$from`, not an `$optional` without a value). */
function isConcrete(value: ExpectedValue): boolean {
  if (!isMatcherObject(value)) return true;
  if (value.$any || value.$from) return false;
  return value.$value !== undefined || value.$one_of !== undefined || value.$range !== undefined;
}

function propertiesOf(tool: ToolDefinition): Record<string, unknown> {
  const props = tool.parameters['properties'];
  return props && typeof props === 'object' && !Array.isArray(props) ? (props as Record<string, unknown>) : {};
}

function requiredOf(tool: ToolDefinition): string[] {
  const required = tool.parameters['required'];
  return Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [];
}

function sortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).sort();
}

/** Same declared type (or, with no old schema, a type the value fits). */
function sameType(before: unknown, after: unknown, value: ExpectedValue): boolean {
  const newType = (after as Schema | undefined)?.['type'];
  if (before !== undefined) return JSON.stringify((before as Schema)['type']) === JSON.stringify(newType);
  if (newType === undefined || !isConcrete(value)) return true;
  const v = representativeValue(value);
  const actual =
    v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
  const types = Array.isArray(newType) ? newType : [newType];
  return types.includes(actual) || (actual === 'integer' && types.includes('number'));
}

function typeText(type: unknown): string {
  if (type === undefined) return 'any';
  return Array.isArray(type) ? type.join(' or ') : String(type);
}
