import type { TestCase } from '../../domain/index.js';
import { invalidCaseReason } from '../../evaluation/index.js';

/** A question-quality warning: never an error, the case imports anyway. */
export interface CaseWarning {
  /** null for a warning about the set as a whole */
  test_case_id: string | null;
  code: 'few_facts' | 'no_critical_fact' | 'no_tool_hints' | 'low_category_diversity' | 'low_difficulty_diversity' | 'invalid_gold';
  message: string;
}

export const MIN_FACTS = 3;
const MIN_CATEGORIES = 3;
const MAX_CATEGORY_SHARE = 0.6;
const MIN_LEVELS = 3;
/** set-level checks start at this many cases (a handful of cases cannot be diverse) */
const MIN_CASES_FOR_DIVERSITY = 10;

const isAbstention = (tc: TestCase): boolean => tc.abstention !== undefined || tc.metadata.tags.includes('abstention');

/**
 * Question checks on a gold set (warnings, not errors): per case, fewer than three expected facts, facts but none
 * marked critical, and no tool hints (no expected or alternative calls and no tool catalog, unless tagged
 * `abstention`: the right answer is then to call nothing); per set (10 cases or more), fewer than three categories
 * or one category above 60% of the cases, and fewer than three complexity levels. A stateful case whose gold calls do not
 * replay on its initial state is `invalid_gold` (runs report it `invalid_case`, not scored).
 */
export function lintCases(cases: readonly TestCase[]): CaseWarning[] {
  const warnings: CaseWarning[] = [];
  for (const tc of cases) {
    const invalid = invalidCaseReason(tc);
    if (invalid !== undefined) {
      warnings.push({ test_case_id: tc.id, code: 'invalid_gold', message: `${invalid}; runs will report it invalid_case, not scored` });
    }
    const facts = tc.expected_facts.filter((f) => f.trim());
    if (!isAbstention(tc) && facts.length < MIN_FACTS) {
      warnings.push({
        test_case_id: tc.id,
        code: 'few_facts',
        message: `has ${facts.length} expected fact(s); give at least ${MIN_FACTS} so the judge checks the answer's substance`,
      });
    }
    if (facts.length > 0 && !(tc.fact_importance ?? []).includes('critical')) {
      warnings.push({
        test_case_id: tc.id,
        code: 'no_critical_fact',
        message: 'marks no expected fact critical (fact_importance); a wrong answer that states the minor facts can then pass',
      });
    }
    if (!isAbstention(tc) && tc.expected_tool_calls.length === 0 && tc.alternative_tool_calls.length === 0 && !tc.tool_catalog) {
      warnings.push({
        test_case_id: tc.id,
        code: 'no_tool_hints',
        message: "expects no tool call and names no tool catalog; if calling nothing is the right answer, tag it 'abstention'",
      });
    }
  }
  if (cases.length >= MIN_CASES_FOR_DIVERSITY) {
    const byCategory = new Map<string, number>();
    for (const tc of cases) byCategory.set(tc.metadata.category ?? '(none)', (byCategory.get(tc.metadata.category ?? '(none)') ?? 0) + 1);
    const [top, topCount] = [...byCategory].sort((a, b) => b[1] - a[1])[0]!;
    if (byCategory.size < MIN_CATEGORIES || topCount / cases.length > MAX_CATEGORY_SHARE) {
      warnings.push({
        test_case_id: null,
        code: 'low_category_diversity',
        message: `${byCategory.size} categor${byCategory.size === 1 ? 'y' : 'ies'}; "${top}" holds ${Math.round((100 * topCount) / cases.length)}% of the ${cases.length} cases (aim for ${MIN_CATEGORIES}+ categories, none above ${MAX_CATEGORY_SHARE * 100}%)`,
      });
    }
    const levels = new Set(cases.map((tc) => tc.metadata.complexity_level));
    if (levels.size < MIN_LEVELS) {
      warnings.push({
        test_case_id: null,
        code: 'low_difficulty_diversity',
        message: `complexity levels used: ${[...levels].sort().join(', ')}; aim for ${MIN_LEVELS}+ levels of 1-5`,
      });
    }
  }
  return warnings;
}
