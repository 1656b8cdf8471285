import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../domain/index.js';
import { widenForAnswers } from './widenForAnswers.js';

const tool = (properties: Record<string, unknown>): ToolDefinition => ({
  name: 'f',
  description: '',
  parameters: { type: 'object', properties },
});
const call = (params: Record<string, unknown[]>) => ({ name: 'f', params, field: 'ground_truth.0.f' });

describe('widenForAnswers', () => {
  it.each<[string, Record<string, unknown>, unknown[], Record<string, unknown>, string[]]>([
    ['same type: unchanged', { type: 'integer' }, [5], { type: 'integer' }, []],
    ['an int answer for a float: unchanged (int is accepted for float)', { type: 'number' }, [5, ''], { type: 'number' }, []],
    ['a string answer for an integer ("variable"): widened', { type: 'integer' }, ['2022'], { type: ['integer', 'string'] }, ['type']],
    ['only the first answer decides, as in BFCL', { type: 'number' }, [20.5, '20.5'], { type: 'number' }, []],
    ['a float answer for an integer: widened', { type: 'integer' }, [9.8], { type: ['integer', 'number'] }, ['type']],
    ['no declared type: unchanged', { description: 'any' }, ['x'], { description: 'any' }, []],
    [
      'answers outside the enum are added',
      { type: 'string', enum: ['ascending'] },
      ['ascending', 'asc', 'asc'],
      { type: 'string', enum: ['ascending', 'asc'] },
      ['enum'],
    ],
    [
      'list items of another type than the declared item type (a dataset slip): items widened',
      { type: 'array', items: { type: 'integer' } },
      [['1', '2'], ''],
      { type: 'array', items: { type: ['integer', 'string'] } },
      ['items.type'],
    ],
    [
      'int list items for float items: unchanged',
      { type: 'array', items: { type: 'number' } },
      [[1, 2]],
      { type: 'array', items: { type: 'number' } },
      [],
    ],
    [
      'list items outside an items enum are added',
      { type: 'array', items: { type: 'string', enum: ['red'] } },
      [['red', 'Blue'], ['green']],
      { type: 'array', items: { type: 'string', enum: ['red', 'Blue', 'green'] } },
      ['items.enum'],
    ],
  ])('%s', (_label, schema, values, expected, changed) => {
    const tools = [tool({ p: schema })];
    const result = widenForAnswers(tools, [call({ p: values })]);
    expect(result.tools).toEqual([tool({ p: expected })]);
    expect(result.notes.map((n) => n.field)).toEqual(changed.map((c) => `function.0.parameters.properties.p.${c}`));
    expect(tools).toEqual([tool({ p: schema })]); // the input is not changed
  });

  it('explains a change', () => {
    expect(widenForAnswers([tool({ year: { type: 'integer' } })], [call({ year: ['2022'] })]).notes).toEqual([
      {
        field: 'function.0.parameters.properties.year.type',
        reason: 'widened to ["integer","string"]: the possible answer "2022" is a string (BFCL accepts values of the answer\'s type)',
      },
    ]);
  });
});
