import { isJsonObject, type BfclReference, type ToolCall } from '../../domain/index.js';
import {
  astChecker,
  BfclCheckerError,
  type AstCheck,
  type BfclLanguage,
  type DecodedCall,
  type FunctionDoc,
  type PossibleCall,
} from './astChecker.js';
import { fromJson, type PyValue } from './pyValue.js';

/** The language BFCL's checker uses for a category (`javascript` before `java`: one contains the other). */
export function bfclLanguageOf(category: string): BfclLanguage {
  if (category.includes('javascript')) return 'javascript';
  if (category.includes('java')) return 'java';
  return 'python';
}

/** What BFCL's runner knows about the model output: the decoded calls, or that decoding failed. */
export type DecodedOutput = { decoded: true; calls: readonly ToolCall[] } | { decoded: false; reason: string };

/**
 * BFCL's verdict for one output: irrelevance categories pass when no call was decoded (BFCL's
 * `relevance_file_runner`); the others fail when decoding failed (`ast_decoder:decoder_failed`) and otherwise go
 * through the AST checker. Where BFCL's own code would raise (a dataset shape it cannot handle), the case fails
 * with rule `checker_error` and the exception.
 */
export function bfclVerdict(reference: BfclReference, output: DecodedOutput): AstCheck {
  const category = reference.category;
  if (category.includes('irrelevance')) {
    const calls = output.decoded ? output.calls.length : 0;
    return calls === 0
      ? { valid: true, error_type: 'valid', error: '' }
      : {
          valid: false,
          error_type: 'irrelevance_error:decoder_success',
          error: 'Valid syntax. Successfully decode AST when it should not.',
        };
  }
  if (!output.decoded)
    return { valid: false, error_type: 'ast_decoder:decoder_failed', error: `Invalid syntax. Failed to decode AST. ${output.reason}` };
  try {
    const docs = reference.function as unknown as FunctionDoc[];
    const expected = possibleCalls(reference);
    const calls: DecodedCall[] = output.calls.map((c) => ({ name: c.tool_name, args: argsOf(c) }));
    return astChecker(docs, calls, expected, bfclLanguageOf(category), category);
  } catch (err) {
    if (err instanceof BfclCheckerError || err instanceof TypeError)
      return { valid: false, error_type: 'checker_error', error: err.message };
    throw err;
  }
}

function argsOf(call: ToolCall): Map<string, PyValue> {
  const value = fromJson(call.arguments, new Set(call.float_literal_paths ?? []));
  return value.t === 'dict' ? value.v : new Map();
}

/** The possible answer as BFCL reads it: one `{name: {param: [values]}}` per expected call. */
export function possibleCalls(reference: BfclReference): PossibleCall[] {
  const floats = new Set(reference.float_literal_paths ?? []);
  return reference.ground_truth.map((entry, i) => {
    if (!isJsonObject(entry)) throw new BfclCheckerError(`ground_truth ${i} is not an object`);
    const name = Object.keys(entry)[0];
    if (name === undefined) throw new BfclCheckerError(`ground_truth ${i} names no function`);
    const params = new Map<string, PyValue[]>();
    const body = entry[name];
    if (!isJsonObject(body)) throw new BfclCheckerError(`ground_truth ${i} has no parameter object`);
    for (const [param, answers] of Object.entries(body)) {
      const value = fromJson(answers, floats, `/${i}/${esc(name)}/${esc(param)}`);
      params.set(param, value.t === 'list' ? value.v : [value]);
    }
    return { name, params };
  });
}

const esc = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
