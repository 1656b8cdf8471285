import type { z } from 'zod';
import { TestCaseSchema } from '../../../domain/index.js';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
};
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The field names a schema accepts at a dotted path (`expected_tool_calls.0`), through arrays, optionals and unions. */
export function fieldsAt(schema: z.ZodType, path: readonly string[]): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? fieldsAt(def.innerType, path) : [];
    case 'pipe':
      return def.in ? fieldsAt(def.in, path) : [];
    case 'lazy':
      return def.getter ? fieldsAt(def.getter(), path) : [];
    case 'union':
      return [...new Set((def.options ?? []).flatMap((o) => fieldsAt(o, path)))];
    case 'array':
      return path.length > 0 && /^\d+$/.test(path[0]!) && def.element ? fieldsAt(def.element, path.slice(1)) : [];
    case 'object': {
      const shape = def.shape ?? {};
      if (path.length === 0) return Object.keys(shape);
      const next = shape[path[0]!];
      return next ? fieldsAt(next, path.slice(1)) : [];
    }
    default:
      return [];
  }
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/**
 * The field probably meant by an unknown one, among the fields accepted at the same place of a test case
 * (`expected_tool_calls.0.tool` → `tool_name`): one that starts or ends with the word (`tool` → `tool_name`),
 * else the nearest by edit distance within a third of its length; undefined when none is close.
 */
export function suggestField(fieldPath: string, schema: z.ZodType = TestCaseSchema): string | undefined {
  const parts = fieldPath.split('.');
  const unknown = parts.at(-1)!.toLowerCase();
  const candidates = fieldsAt(schema, parts.slice(0, -1)).filter((f) => f !== unknown);
  const words = unknown.length >= 3 ? candidates.filter((f) => f.startsWith(unknown) || f.endsWith(`_${unknown}`)) : [];
  if (words.length === 1) return words[0];
  const scored = candidates.map((f) => ({ f, d: distance(unknown, f) })).sort((a, b) => a.d - b.d || a.f.localeCompare(b.f));
  const best = scored[0];
  if (best && best.d <= Math.max(1, Math.floor(best.f.length / 3))) return best.f;
  // an abbreviation: the same first letter and every letter in order (`args` -> `arguments`), when only one fits
  const abbreviates = (f: string): boolean => {
    let i = 0;
    for (const ch of f) if (ch === unknown[i]) i += 1;
    return f[0] === unknown[0] && i === unknown.length;
  };
  const abbreviated = unknown.length >= 3 ? candidates.filter(abbreviates) : [];
  // several: the one that also starts like it (`args`: `arguments`, not `allow_extra_arguments`)
  const closer = abbreviated.filter((f) => f.startsWith(unknown.slice(0, 2)));
  return abbreviated.length === 1 ? abbreviated[0] : closer.length === 1 ? closer[0] : words[0];
}

/** A row error's reason with the suggestion added to an unknown field (`unknown field; did you mean "tool_name"?`). */
export function reasonWithSuggestion(field: string, reason: string): string {
  if (reason !== 'unknown field' || !field) return reason;
  const suggestion = suggestField(field);
  return suggestion ? `${reason}; did you mean "${suggestion}"?` : reason;
}
