import {
  canonicalJson,
  type CaseMigrationChange,
  type CatalogMigrationOperation,
  type ExpectedToolCall,
  type TestCase,
} from '../../domain/index.js';
import { expectedCallsOf, mapExpectedCalls } from './caseCalls.js';

/**
 * A case migrated to a new catalog version: each operation applied to every expected call (in order), and the
 * case's own `tool_catalog` reference moved to `catalog.version` when it names that catalog. Idempotent: a rename
 * whose old name is absent, or a default whose argument is present, changes nothing, so migrating a migrated case
 * returns it unchanged (no changes). A rename onto an argument the call already has is not applied (it would lose
 * a value); the call still breaks the new version and the migration's report says so.
 */
export function migrateCase(
  testCase: TestCase,
  operations: readonly CatalogMigrationOperation[],
  catalog: { name: string; version: string },
): { testCase: TestCase; changes: CaseMigrationChange[] } {
  const changes: CaseMigrationChange[] = [];
  const located = expectedCallsOf(testCase);
  let index = 0;
  let migrated = mapExpectedCalls(testCase, (call) => {
    const at = located[index++]?.at ?? '?';
    let current = call;
    for (const op of operations) current = applyOperation(current, op, at, changes);
    return current;
  });
  if (migrated.tool_catalog && migrated.tool_catalog.name === catalog.name && migrated.tool_catalog.version !== catalog.version) {
    changes.push({ path: 'tool_catalog/version', before: migrated.tool_catalog.version, after: catalog.version });
    migrated = { ...migrated, tool_catalog: { name: catalog.name, version: catalog.version } };
  }
  return { testCase: changes.length > 0 ? migrated : testCase, changes };
}

function applyOperation(
  call: ExpectedToolCall,
  op: CatalogMigrationOperation,
  at: string,
  changes: CaseMigrationChange[],
): ExpectedToolCall {
  switch (op.op) {
    case 'rename_tool':
      if (call.tool_name !== op.from) return call;
      changes.push({ path: `${at}/tool_name`, before: op.from, after: op.to });
      return { ...call, tool_name: op.to };
    case 'rename_argument': {
      if (call.tool_name !== op.tool || !(op.from in call.arguments)) return call;
      if (op.to in call.arguments) return call; // both set: left as is (the report after migration names it)
      const args: ExpectedToolCall['arguments'] = {};
      // keep the argument's position: the new name where the old one was
      for (const [key, value] of Object.entries(call.arguments)) args[key === op.from ? op.to : key] = value;
      changes.push({ path: `${at}/arguments/${op.from}`, before: op.from, after: op.to });
      return { ...call, arguments: args };
    }
    case 'add_default':
      if (call.tool_name !== op.tool || op.argument in call.arguments) return call;
      changes.push({ path: `${at}/arguments/${op.argument}`, after: op.value });
      return { ...call, arguments: { ...call.arguments, [op.argument]: op.value } };
  }
}

/** True when two case bodies are the same content (canonical JSON). */
export function sameCase(a: TestCase, b: TestCase): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
