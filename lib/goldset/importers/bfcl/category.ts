/** How BFCL's AST checker treats a category: `parallel*` -> unordered calls, `multiple` -> one call among several docs. */
export type BfclKind = 'simple' | 'multiple' | 'parallel' | 'parallel_multiple' | 'irrelevance';
/** The language of the function docs: Java and JavaScript parameters are passed as source text (strings). */
export type BfclLanguage = 'python' | 'java' | 'javascript';

export interface BfclCategory {
  /** The category as BFCL names it (`simple`, `simple_python`, `live_multiple`, `java`, ...). */
  name: string;
  kind: BfclKind;
  language: BfclLanguage;
  /** 1 simple/irrelevance, 2 multiple, 3 parallel, 4 parallel_multiple, 5 any live_* category. */
  complexity: number;
}

const COMPLEXITY = { simple: 1, irrelevance: 1, multiple: 2, parallel: 3, parallel_multiple: 4 } as const satisfies Record<
  BfclKind,
  number
>;

/** `simple_0` -> `simple`, `live_simple_19-3-15` -> `live_simple`, `simple_python_12` -> `simple_python`. */
export function categoryFromId(id: string): string | undefined {
  const match = /^(.+?)_\d+(?:-\d+)*$/.exec(id);
  return match?.[1];
}

/** What the checker does with a category, or why this importer cannot take it (a reason for the row error). */
export function describeCategory(name: string): BfclCategory | string {
  if (/memory|web_search|agentic/.test(name)) {
    return `category "${name}" is agentic (memory or web search against live backends BFCL runs itself); its checks cannot be represented as expected calls`;
  }
  if (/multi_turn/.test(name)) {
    return `category "${name}" is multi-turn: import it as conversation cases (ids multi_turn_*), not as single-turn cases`;
  }
  if (/(^|_)relevance$/.test(name) && !name.includes('irrelevance')) {
    return `category "${name}" passes any call at all; there is no expected call to compare, so it cannot be imported`;
  }
  if (/(^|_)(exec|executable|rest|sql|chatable)(_|$)|format_sensitivity/.test(name)) {
    return `category "${name}" is executable, retired or a prompt-format variant; only AST categories can be imported`;
  }
  const kind = kindOf(name);
  if (kind === undefined)
    return `unknown BFCL category "${name}" (expected simple, multiple, parallel, parallel_multiple, irrelevance, java, javascript or a live_ variant)`;
  const language: BfclLanguage = name.includes('javascript') ? 'javascript' : name.includes('java') ? 'java' : 'python';
  const complexity = name.startsWith('live') ? 5 : COMPLEXITY[kind];
  return { name, kind, language, complexity };
}

function kindOf(name: string): BfclKind | undefined {
  if (name.includes('irrelevance')) return 'irrelevance';
  if (name.includes('parallel_multiple')) return 'parallel_multiple';
  if (name.includes('parallel')) return 'parallel';
  if (name.includes('multiple')) return 'multiple';
  if (/simple|java|python/.test(name)) return 'simple';
  return undefined;
}
