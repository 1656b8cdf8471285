import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestCaseSchema, type TestCaseInput } from '../../domain/index.js';
import { packageRoot } from '../../app/packageRoot.js';
import { lintCases } from './lintCases.js';

const tc = (id: string, over: Partial<TestCaseInput> = {}) =>
  TestCaseSchema.parse({
    id,
    nl_query: 'q',
    expected_tool_calls: [{ tool_name: 't', arguments: {} }],
    expected_facts: ['a 1', 'b 2', 'c 3'],
    fact_importance: ['critical', 'minor', 'minor'],
    ...over,
  });

describe('lintCases', () => {
  it('warns per case: few facts, no critical fact, no tool hints (abstentions exempt)', () => {
    const w = lintCases([
      tc('ok'),
      tc('two-facts', { expected_facts: ['a', 'b'], fact_importance: ['critical', 'minor'] }),
      tc('no-critical', { fact_importance: undefined }),
      tc('no-tools', { expected_tool_calls: [] }),
      tc('abstain', {
        expected_tool_calls: [],
        expected_facts: [],
        fact_importance: undefined,
        metadata: { complexity_level: 1, tags: ['abstention'] },
      }),
    ]);
    expect(w.map((x) => [x.test_case_id, x.code])).toEqual([
      ['two-facts', 'few_facts'],
      ['no-critical', 'no_critical_fact'],
      ['no-tools', 'no_tool_hints'],
    ]);
  });

  it('warns on the set: one category dominating, fewer than three complexity levels (10+ cases only)', () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      tc(`c${i}`, { metadata: { complexity_level: 1 + (i % 2), tags: [], category: i < 8 ? 'orders' : 'refunds' } }),
    );
    expect(lintCases(many).map((w) => w.code)).toEqual(['low_category_diversity', 'low_difficulty_diversity']);
    expect(lintCases(many.slice(0, 9))).toEqual([]);
  });

  it('on the bundled retail gold set: the set is diverse, and the per-case warnings are counted (no facts are marked critical there)', async () => {
    const text = await readFile(join(packageRoot(), 'examples/retail/gold.jsonl'), 'utf8');
    const cases = text
      .trim()
      .split('\n')
      .map((l) => TestCaseSchema.parse(JSON.parse(l)));
    const w = lintCases(cases);
    expect(w.filter((x) => x.test_case_id === null)).toEqual([]);
    expect(w.length).toBeGreaterThan(0);
  });
});

describe('evalp cases lint', () => {
  it('prints each warning and a summary; --json gives them as data', async () => {
    const { runCliInProcess } = await import('../../cli/commands/cliRunner.test-helpers.js');
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'evalp-lint-'));
    const file = join(dir, 'gold.jsonl');
    await writeFile(
      file,
      [tc('good'), tc('thin', { expected_facts: ['only one'], fact_importance: ['critical'] })].map((c) => JSON.stringify(c)).join('\n'),
    );
    const r = await runCliInProcess(['cases', 'lint', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: thin: few_facts: has 1 expected fact(s)');
    expect(r.stdout).toContain('2 cases checked: 1 warning(s)');
    const j = await runCliInProcess(['cases', 'lint', file, '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({ cases: 2, warnings: [{ test_case_id: 'thin', code: 'few_facts' }] });
  });
});
