import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunReport } from './buildRunReport.js';
import { renderMarkdown } from './renderMarkdown.js';
import { REPORT_MARKER, type RunReport } from './reportModel.js';
import { HOSTILE_CASE_ID, retailRunsFixture, type RetailPlatform } from './testing/retailPlatform.test-helpers.js';

let retail: RetailPlatform;
let report: RunReport;
let compared: RunReport;

beforeAll(async () => {
  const fixture = await retailRunsFixture();
  retail = fixture.retail;
  const { stores, clock } = retail.platform.services;
  report = await buildRunReport(fixture.head.id, { stores, clock }, { maxFailures: 1000 });
  compared = await buildRunReport(fixture.head.id, { stores, clock }, { maxFailures: 1000, compareWith: fixture.base.id });
});
afterAll(async () => retail?.stop());

/** The data rows of the Markdown table under a heading. */
function tableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`${heading}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  for (const line of markdown.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) {
      if (rows.length) break;
      continue;
    }
    if (/^\|[-:|]+\|$/.test(line)) continue;
    rows.push(line.slice(2, -2).split(' | '));
  }
  return rows.slice(1);
}

describe('the Markdown report of the retail sample (model B)', () => {
  it('starts with the marker and a headline, and states the numbers of RunStats', () => {
    const md = renderMarkdown(report);
    expect(md.startsWith(`${REPORT_MARKER}\n## ✅ EvalPlatform: simulated-model-b on retail-demo: 83.2% passed\n`)).toBe(true);
    expect(md).toContain('**272 of 327** scored cases passed (95% CI 78.7%–86.8%)');
    expect(md).toContain(
      'Not scored (infrastructure: target, MCP server, judge): 0 of 327 (infrastructure-failure rate 0.0%), left out of every rate above.',
    );
    expect(md).toContain('PR #42 · branch feature/refunds');
    expect(tableRows(md, '### Stages')).toEqual([
      ['syntax', '327', '322', '98.5% (96.5%–99.3%)', '322'],
      ['logic', '322', '277', '86.0% (81.8%–89.4%)', '277'],
      ['execution', '288', '252', '87.5% (83.2%–90.8%)', '277'],
      ['semantics', '310', '274', '88.4% (84.3%–91.5%)', '272'],
    ]);
    const categories = tableRows(md, '### Pass rate by category');
    expect(categories[0]).toEqual(['refunds', '47', '59.6% (45.3%–72.4%)']);
    expect(categories.map((r) => Number(r[1])).reduce((a, b) => a + b, 0)).toBe(327);
    expect(md).toMatch(/latency p50 2566 ms, p95 3678 ms/);
    expect(md).toContain('cost $6.3562');
    expect(md).toContain(`### Failing cases (${report.stats.failed})`);
  });

  it('escapes a question holding markup, a table pipe, Markdown syntax and control characters', () => {
    const md = renderMarkdown(report);
    const row = md.split('\n').find((l) => l.startsWith(`| ${HOSTILE_CASE_ID} |`))!;
    expect(row).toBeDefined();
    expect(row).not.toMatch(/<script|<\/script|<!--/);
    expect(row).toContain(
      '&lt;/script&gt;&lt;script&gt;window.\\_\\_xss=1&lt;/script&gt; \\]\\]&gt; &amp; "q" \'s\' \\| \\*b\\* &lt;\\!-- c --&gt; \\`t\\` \\\\u0001\\\\u0008 \uFFFD done?',
    );
    // the pipe is escaped, so the row still has exactly five cells
    expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(7);
    expect(md.match(/<script/g)).toBeNull();
  });

  it('compares with the base run: verdict, deltas with intervals and p-values, categories, flipped cases', () => {
    const md = renderMarkdown(compared);
    const pair = compared.comparison!.comparison.pairs[0]!;
    expect(md).toContain(
      `### Compared with base run ${compared.comparison!.base_run.id} (simulated-model-a, branch main, commit aaaaaaa1)`,
    );
    expect(md).toContain(`> **${pair.verdict.replace(/[_*]/g, (c) => `\\${c}`)}**`);
    const overall = tableRows(
      md,
      `### Compared with base run ${compared.comparison!.base_run.id} (simulated-model-a, branch main, commit aaaaaaa1)`,
    );
    expect(overall[0]).toEqual([
      'pass rate',
      '87.8%',
      '83.2%',
      '−4.6 pts',
      expect.stringMatching(/^−\d+\.\d … \d+\.\d$/),
      `${pair.overall.p_value.toFixed(3)} (exact McNemar)`,
    ]);
    const categories = tableRows(md, '**By category** (p-values Holm-adjusted across categories; ⚠️ marks a significant change):');
    expect(categories[0]).toEqual([
      'refunds',
      '89.4%',
      '59.6%',
      '−29.8 pts',
      expect.any(String),
      pair.by_category.find((g) => g.key === 'refunds')!.p_value_adjusted.toFixed(3),
      '⚠️',
    ]);
    expect(categories.filter((r) => r[6] === '⚠️')).toHaveLength(1);
    expect(md).toContain(`#### Newly failing (${pair.flipped.newly_failing.total})`);
    expect(md).toContain(`#### Newly passing (${pair.flipped.newly_passing.total})`);
    expect(md.length).toBeLessThanOrEqual(60_000);
  });

  it.each([
    ['critical', 'open', '❌', 'critical-severity alert'],
    ['high', 'open', '❌', 'high-severity alert'],
    ['medium', 'open', '⚠️', 'medium-severity alert'],
    ['low', 'open', '⚠️', 'low-severity alert'],
    ['critical', 'acknowledged', '✅', 'no regression alert'],
  ] as const)('a %s alert (%s) sets the headline to %s and is listed', (severity, status, icon, text) => {
    const alert = {
      id: 'a:accuracy',
      run_id: report.run.id,
      baseline_run_id: 'base',
      client_id: null,
      suite_id: 'retail-demo',
      target_id: 'simulated-model-b',
      metric: 'accuracy' as const,
      severity,
      previous: 0.878,
      current: 0.832,
      change: -4.6,
      change_unit: 'points' as const,
      threshold: -5,
      p_value: 0.0004,
      test: 'exact McNemar',
      affected_categories: [{ category: 'refunds', previous: 0.894, current: 0.596, change: -29.8, p_value_adjusted: 0.035 }],
      message: 'accuracy <b>fell</b>',
      live: false,
      paired_cases: 327,
      status,
      created_at: report.generated_at,
      updated_at: report.generated_at,
      acknowledged_at: null,
      acknowledged_by: null,
      delivery: { status: 'none' as const, attempts: 0, last_error: null, delivered_at: null },
    };
    const md = renderMarkdown({ ...report, alerts: [alert] });
    expect(md.split('\n')[1]).toBe(`## ${icon} EvalPlatform: simulated-model-b on retail-demo: 83.2% passed`);
    expect(md).toContain(`: ${text}.`);
    expect(md).toContain(
      `- ${{ low: '🔵', medium: '🟡', high: '🟠', critical: '🔴' }[severity]} **${severity}** accuracy −4.6 pts (p < 0.001, exact McNemar${status === 'acknowledged' ? ', acknowledged' : ''}): accuracy &lt;b&gt;fell&lt;/b&gt;; categories: refunds (−29.8)`,
    );
  });

  it('lists every failure when it fits, with the count', () => {
    const md = renderMarkdown(report, { maxFailures: 1000 });
    expect(md).toContain(`<summary>all ${report.stats.failed}</summary>`);
    expect(tableRows(md, `### Failing cases (${report.stats.failed})`)).toHaveLength(report.stats.failed);
  });

  it.each([60_000, 8_000, 3_000, 1_200])('stays within %i characters by shortening lists and saying how many are left out', (maxChars) => {
    const md = renderMarkdown(report, { maxChars, maxFailures: 1000 });
    expect(md.length).toBeLessThanOrEqual(maxChars);
    expect(md.startsWith(REPORT_MARKER)).toBe(true);
    if (maxChars < 14_000) expect(md).toMatch(/… and \d+ more|left out to keep this report short|report cut to fit the size limit/);
  });

  it('a very large failure list stays under the GitHub comment limit', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      ...report.failures.cases[i % report.failures.cases.length]!,
      test_case_id: `case-${i}`,
      question: 'x'.repeat(300),
    }));
    const md = renderMarkdown({ ...report, failures: { total: 400_000, cases: many } }, { maxFailures: 5000 });
    expect(md.length).toBeLessThanOrEqual(60_000);
    expect(md).toMatch(/_… and \d+ more \(see the HTML, JSON or JUnit report\)\._/);
    expect(md).toContain('### Failing cases (400000)');
  });
});
