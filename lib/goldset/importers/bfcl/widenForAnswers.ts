import { isJsonObject, type ToolDefinition } from '../../../domain/index.js';
import type { FieldProblem } from './functionDocs.js';
import type { GroundTruthCall } from './possibleAnswers.js';

/**
 * Makes the tool schemas admit every answer BFCL's checker admits, so stage 1 does not reject a call BFCL passes:
 *  - BFCL's "variable" rule: when a parameter's first acceptable value has another type than the declared one (e.g.
 *    the string "2022" for an integer), values of that type are accepted -> the type becomes `[declared, that type]`;
 *  - BFCL never checks `enum`: acceptable values missing from the enum are added to it.
 * Top-level parameters and the items of array parameters (BFCL's type check goes one level into lists: an item may
 * have the declared item type or the type of the answer list's first item). Returns new tools (the input is not
 * changed) and one note per change.
 */
export function widenForAnswers(
  tools: readonly ToolDefinition[],
  calls: readonly GroundTruthCall[],
): { tools: ToolDefinition[]; notes: FieldProblem[] } {
  const notes: FieldProblem[] = [];
  const widened = tools.map((tool) => ({ ...tool, parameters: { ...tool.parameters } }));
  for (const call of calls) {
    const toolIndex = widened.findIndex((t) => t.name === call.name);
    const tool = widened[toolIndex];
    if (tool === undefined || !isJsonObject(tool.parameters['properties'])) continue;
    const properties: Record<string, unknown> = { ...tool.parameters['properties'] };
    for (const [param, list] of Object.entries(call.params)) {
      const original = properties[param];
      if (!isJsonObject(original)) continue;
      const schema: Record<string, unknown> = { ...original };
      const values = list.filter((v) => v !== '');
      const field = `function.${toolIndex}.parameters.properties.${param}`;
      const declared = typesOf(schema['type']);
      const first = values[0];
      if (declared !== undefined && first !== undefined) {
        const answerType = jsonTypeOf(first);
        if (!accepts(declared, answerType)) {
          schema['type'] = [...declared, answerType];
          notes.push({
            field: `${field}.type`,
            reason: `widened to ${JSON.stringify(schema['type'])}: the possible answer ${JSON.stringify(first)} is a ${answerType} (BFCL accepts values of the answer's type)`,
          });
        }
      }
      const enumValues = schema['enum'];
      if (Array.isArray(enumValues)) {
        const missing = [...new Set(values.filter((v) => (typeof v !== 'object' || v === null) && !enumValues.includes(v)))];
        if (missing.length > 0) {
          schema['enum'] = [...enumValues, ...missing];
          notes.push({
            field: `${field}.enum`,
            reason: `added ${missing.map((v) => JSON.stringify(v)).join(', ')}: possible answers outside the enum (BFCL does not check enums)`,
          });
        }
      }
      const items = schema['items'];
      if (isJsonObject(items)) schema['items'] = widenItems(items, values, field, notes);
      properties[param] = schema;
    }
    tool.parameters = { ...tool.parameters, properties };
  }
  return { tools: widened, notes };
}

function typesOf(type: unknown): string[] | undefined {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type as string[];
  return undefined;
}

function accepts(declared: string[], answerType: string): boolean {
  return declared.includes(answerType) || (answerType === 'integer' && declared.includes('number'));
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** An array parameter's `items`: typed as the answer lists' items are, and with their values in its enum. */
function widenItems(
  items: Record<string, unknown>,
  values: readonly unknown[],
  field: string,
  notes: FieldProblem[],
): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...items };
  const lists = values.filter((v): v is unknown[] => Array.isArray(v));
  const declared = typesOf(schema['type']);
  const first = lists[0]?.find((v) => v !== '');
  if (declared !== undefined && first !== undefined) {
    const answerType = jsonTypeOf(first);
    if (!accepts(declared, answerType)) {
      schema['type'] = [...declared, answerType];
      notes.push({
        field: `${field}.items.type`,
        reason: `widened to ${JSON.stringify(schema['type'])}: the possible answer's items (${JSON.stringify(first)}) are ${answerType}s (BFCL accepts list items of the answer's type)`,
      });
    }
  }
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues)) {
    const scalars = lists.flat().filter((v) => typeof v !== 'object' || v === null);
    const missing = [...new Set(scalars.filter((v) => !enumValues.includes(v)))];
    if (missing.length > 0) {
      schema['enum'] = [...enumValues, ...missing];
      notes.push({
        field: `${field}.items.enum`,
        reason: `added ${missing.map((v) => JSON.stringify(v)).join(', ')}: possible list items outside the enum (BFCL does not check enums)`,
      });
    }
  }
  return schema;
}
