import type { z } from 'zod';
import type { ImportRowError } from './types.js';

type Path = readonly PropertyKey[];

/** Joins a path as dotted text (`expected_tool_calls.0.arguments`); '' for the root. */
export function dottedPath(prefix: string, path: Path): string {
  const tail = path.map(String).join('.');
  if (prefix === '') return tail;
  return tail === '' ? prefix : `${prefix}.${tail}`;
}

/** Maps zod issues to row errors: one per issue (one per key for unknown keys), with a reason a person can act on. */
export function issuesToRowErrors(row: number, id: string | undefined, issues: readonly z.core.$ZodIssue[], prefix = ''): ImportRowError[] {
  const errors: ImportRowError[] = [];
  for (const issue of issues) {
    const withId = (field: string, reason: string): ImportRowError =>
      id === undefined ? { row, field, reason } : { row, id, field, reason };
    const keys = 'keys' in issue && Array.isArray(issue.keys) ? (issue.keys as string[]) : undefined;
    if (keys && issue.message.startsWith('Unrecognized key')) {
      for (const key of keys) errors.push(withId(dottedPath(prefix, [...issue.path, key]), unknownKeyReason(key)));
      continue;
    }
    errors.push(withId(dottedPath(prefix, issue.path), describeIssue(issue)));
  }
  return errors;
}

function unknownKeyReason(key: string): string {
  return key.startsWith('$')
    ? `unknown matcher "${key}" (matchers: $value, $one_of, $optional, $range, $tolerance, $unordered, $any, $from)`
    : 'unknown field';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return `required (expected ${issue.expected})`;
  if (issue.code === 'invalid_union') {
    const branches = issue.errors
      .map((branch) => branch.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join(', '))
      .filter((text) => text !== '');
    const unique = [...new Set(branches)];
    if (unique.length > 0) return `matches none of the accepted forms (${unique.join(' | ')})`;
  }
  if (issue.code === 'invalid_value' && issue.values.length > 0)
    return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}
