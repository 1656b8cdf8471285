import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, RunStats, Scorecard } from '../domain/index.js';
import type { ReportDeps } from './buildRunReport.js';
import { renderJunit } from './renderJunit.js';
import { HOSTILE_CASE_ID, HOSTILE_QUESTION, retailRunsFixture, type RetailPlatform } from './testing/retailPlatform.test-helpers.js';
import { parseXml, type XmlElement } from './testing/xmlTree.test-helpers.js';

let retail: RetailPlatform;
let head: Run & { stats: RunStats };
let deps: ReportDeps;
let xml: string;
let root: XmlElement;

beforeAll(async () => {
  ({ retail, head } = await retailRunsFixture());
  deps = { stores: retail.platform.services.stores, clock: retail.platform.services.clock };
  xml = (await renderJunit(head.id, deps)).join('');
  root = parseXml(xml);
});
afterAll(async () => retail?.stop());

const testcases = (suite: XmlElement): XmlElement[] => suite.children.filter((c) => c.name === 'testcase');

describe('the JUnit report of the retail sample (model B)', () => {
  it('is well-formed XML with one testcase per scored case, grouped by category, counts matching RunStats', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    expect(root.name).toBe('testsuites');
    expect([root.attributes.tests, root.attributes.failures, root.attributes.errors]).toEqual(['327', String(head.stats.failed), '0']);
    const suites = root.children;
    expect(suites.every((s) => s.name === 'testsuite')).toBe(true);
    expect(
      Object.fromEntries(
        suites.map((s) => [
          s.attributes.name,
          { completed: testcases(s).length, passed: testcases(s).filter((t) => t.children.length === 0).length },
        ]),
      ),
    ).toEqual(head.stats.by_category);
    for (const s of suites) {
      expect(Number(s.attributes.tests)).toBe(testcases(s).length);
      expect(Number(s.attributes.failures)).toBe(testcases(s).filter((t) => t.children.some((c) => c.name === 'failure')).length);
      expect(s.children[0]!.name).toBe('properties');
      expect(testcases(s).every((t) => t.attributes.classname === `retail-demo.${s.attributes.name}`)).toBe(true);
    }
    const names = suites.flatMap((s) => testcases(s).map((t) => t.attributes.name));
    expect(new Set(names).size).toBe(327);
  });

  it('gives each failure its stage, error code, question and diff, matching the scorecard', async () => {
    const failing = new Map<string, Scorecard>();
    for await (const c of deps.stores.scorecards.iterateScorecards(head.id)) if (!c.overall_passed) failing.set(c.test_case_id, c);
    const failures = root.children.flatMap(testcases).filter((t) => t.children.length > 0);
    expect(failures).toHaveLength(failing.size);
    for (const t of failures) {
      const card = failing.get(t.attributes.name!)!;
      const failure = t.children[0]!;
      expect([failure.name, failure.attributes.type]).toEqual(['failure', card.error_code]);
      expect(failure.attributes.message!.startsWith(`${card.failing_stage}/${card.error_code}: `)).toBe(true);
      expect(failure.text).toContain(`stage: ${card.failing_stage}\nerror code: ${card.error_code}\nquestion: `);
    }
    const wrongTool = failures.find((t) => t.attributes.name === 'retail-0045')!.children[0]!;
    expect(wrongTool.text).toBe(
      'stage: logic\nerror code: wrong_tool\nquestion: For CUS-16019: show me their profile, their delivered orders since August 1, 2026, and any open support tickets.\n' +
        `score: ${failing.get('retail-0045')!.overall_score}\nmessage: wrong tool: called get_customer where search_orders was expected\ndiff:\n  missing call search_orders\n  unexpected call get_customer`,
    );
  });

  it('keeps a hostile question intact: escaped on the way out, identical once parsed back', () => {
    const t = root.children.flatMap(testcases).find((c) => c.attributes.name === HOSTILE_CASE_ID)!;
    const expected = HOSTILE_QUESTION.replace('\u0001', '\\u0001').replace('\u0008', '\\u0008').replace('\uD800', '\uFFFD');
    expect(t.children[0]!.text).toContain(`question: ${expected}\n`);
    expect(xml).toContain('&lt;/script&gt;&lt;script&gt;window.__xss=1&lt;/script&gt; ]]&gt; &amp;');
  });

  it('carries the run as properties, and 404s an unknown run', async () => {
    const props = Object.fromEntries(root.children[0]!.children[0]!.children.map((p) => [p.attributes.name, p.attributes.value]));
    expect(props).toEqual({
      run_id: head.id,
      run_status: 'completed',
      suite_id: 'retail-demo',
      target_id: 'simulated-model-b',
      unscored_cases: '0',
      branch: 'feature/refunds',
      commit_sha: 'bbbbbbb2',
      pr_number: '42',
      repository: 'acme/shop',
    });
    await expect(renderJunit('nope', deps)).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});
