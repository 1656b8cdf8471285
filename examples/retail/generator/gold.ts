import { TestCaseSchema, type ExpectedValue, type TestCase, type TestCaseInput } from '../../../lib/domain/index.js';
import { simulateApi } from './api/simulateApi.js';
import { expectedData, ignoredPaths } from './api/volatile.js';
import { CATALOG_NAME, TOOL_SCHEMA_VERSION } from './catalog.js';
import { addDays, AUTHORED_AT } from './dates.js';
import type { Prng } from './prng.js';
import type { CaseSpec } from './scenarios/types.js';
import type { World } from './world/types.js';

const AUTHORS = ['maria.lopez', 'qa-bot', 'jonas.becker', 'priya.sharma'] as const;
const V3_TOOLS = new Set(['get_sales_summary', 'get_top_products', 'get_shipping_quote']);
/** share of cases with no expected answer or facts (stage 4 is skipped for them) */
const NO_REFERENCE_SHARE = 0.04;

export function caseId(index: number): string {
  return `retail-${String(index + 1).padStart(4, '0')}`;
}

/**
 * The gold case for a spec: expected calls, data the API returns to them (with matchers), the reference answer.
 * Returns the case as written to gold.jsonl (defaults left out) and as the schema reads it (to check it).
 */
export function buildTestCase(spec: CaseSpec, index: number, world: World, rng: Prng): { written: TestCaseInput; parsed: TestCase } {
  const results = spec.calls.map((c) => simulateApi(world, c));
  results.forEach((r, i) => {
    if (r.status >= 300) throw new Error(`${caseId(index)} (${spec.kind}): expected call ${i} gets ${r.status} ${JSON.stringify(r.data)}`);
  });
  const reference = spec.answer(
    results.map((r) => ({ status: r.status, data: r.data })),
    true,
  );
  const withReference = !spec.noReference && (spec.category === 'abstention' || !rng.chance(NO_REFERENCE_SHARE));
  const ignore = [...new Set(results.flatMap(ignoredPaths))];
  const created = addDays('2026-09-01', rng.int(0, 41));
  // a case whose data drifts was (re)captured the morning the cassette was recorded
  const timeSensitive = results.some((r) => r.volatile.some((v) => v.kind === 'range'));
  const updated = timeSensitive ? AUTHORED_AT : `${[addDays(created, rng.int(0, 5)), '2026-10-13'].sort()[0]}T10:00:00Z`;
  const input: TestCaseInput = {
    id: caseId(index),
    nl_query: spec.question,
    expected_tool_calls: spec.expected ?? spec.calls.map((c) => ({ tool_name: c.tool_name, arguments: c.arguments })),
    ...(spec.alternatives?.length ? { alternative_tool_calls: spec.alternatives.map((a) => a.expected) } : {}),
    ...(results.length ? { expected_raw_data: results.map((r): ExpectedValue => expectedData(r)) } : {}),
    ...(ignore.length ? { execution: { ignore_paths: ignore } } : {}),
    ...(withReference ? { expected_nl_response: reference.sentences.join(' '), expected_facts: reference.facts } : {}),
    tool_catalog: { name: CATALOG_NAME, version: TOOL_SCHEMA_VERSION },
    metadata: {
      api_version: spec.calls.some((c) => V3_TOOLS.has(c.tool_name)) ? 'v3' : 'v2',
      complexity_level: spec.complexity,
      tags: [...new Set([...spec.tags, spec.kind.split('.')[1]!.replaceAll('_', '-'), ...(timeSensitive ? ['time-sensitive'] : [])])],
      category: spec.category,
      author: rng.pick(AUTHORS),
      source: 'native',
      created_at: `${created}T10:00:00Z`,
      updated_at: updated,
    },
  };
  return { written: input, parsed: TestCaseSchema.parse(input) };
}
