import { describe, expect, it } from 'vitest';
import { caseContentHash, diffSuiteVersions, versionContentHash } from './suiteVersion.js';
import { TestCaseSchema } from './testCase.js';

const c = (id: string, hash: string) => ({ test_case_id: id, content_hash: hash });

describe('suite versions', () => {
  it('diff: added, removed, changed (sorted by id) and the unchanged count', () => {
    const d = diffSuiteVersions(
      { suite_id: 's', version: 1 },
      [c('b', 'h1'), c('a', 'h2'), c('gone', 'h3'), c('same', 'h4')],
      { version: 3 },
      [c('same', 'h4'), c('new2', 'h5'), c('b', 'h9'), c('new1', 'h6'), c('a', 'h2')],
    );
    expect(d).toEqual({
      suite_id: 's',
      from_version: 1,
      to_version: 3,
      added: ['new1', 'new2'],
      removed: ['gone'],
      changed: [{ test_case_id: 'b', from_hash: 'h1', to_hash: 'h9' }],
      unchanged: 2,
    });
    expect(diffSuiteVersions({ suite_id: 's', version: 1 }, [c('a', 'x')], { version: 1 }, [c('a', 'x')])).toMatchObject({
      added: [],
      removed: [],
      changed: [],
      unchanged: 1,
    });
  });

  it('the content hash ignores key order and changes with any field of the body', () => {
    const tc = TestCaseSchema.parse({ id: 'x', nl_query: 'q', expected_tool_calls: [{ tool_name: 't', arguments: { a: 1, b: 2 } }] });
    const reordered = { ...tc, expected_tool_calls: [{ arguments: { b: 2, a: 1 }, tool_name: 't' }] };
    expect(caseContentHash(reordered as typeof tc)).toBe(caseContentHash(tc));
    expect(caseContentHash({ ...tc, nl_query: 'q?' })).not.toBe(caseContentHash(tc));
    expect(caseContentHash({ ...tc, metadata: { ...tc.metadata, tags: ['t'] } })).not.toBe(caseContentHash(tc));
    expect(versionContentHash([c('a', 'h'), c('b', 'h')])).not.toBe(versionContentHash([c('b', 'h'), c('a', 'h')]));
  });
});
