import { describe, expect, it } from 'vitest';
import { importBfcl } from './bfclImporter.js';
import { exportCsv, exportJsonl } from '../exporters.js';
import { importCsv } from '../csvImporter.js';
import { importJsonl } from '../jsonImporter.js';

const question = (id: string, fn: unknown) =>
  JSON.stringify({ id, question: [[{ role: 'user', content: 'Area under x**2 from 1 to 3?' }]], function: fn });
const doc = {
  name: 'calc.area',
  description: 'Area under a curve.',
  parameters: {
    type: 'dict',
    properties: { interval: { type: 'array', items: { type: 'float' } }, n: { type: 'integer' } },
    required: ['interval'],
  },
};

describe('importBfcl keeps the question as BFCL has it (metadata.bfcl, for compat: "bfcl")', () => {
  it('stores the docs, the possible answer and the pointers of float literals JSON.parse would lose', async () => {
    const answers = '{"id": "simple_python_7", "ground_truth": [{"calc.area": {"interval": [[1.0, 3.0]], "n": [10, ""]}}]}';
    const result = await importBfcl({ questions: question('simple_python_7', [doc]), answers });
    expect(result.errors).toEqual([]);
    expect(result.cases[0]?.metadata.bfcl).toEqual({
      category: 'simple_python',
      function: [doc],
      ground_truth: [{ 'calc.area': { interval: [[1, 3]], n: [10, ''] } }],
      float_literal_paths: ['/0/calc.area/interval/0/0', '/0/calc.area/interval/0/1'],
    });
  });

  it('an older file (one function object, a ground-truth object in the question line): lists, pointers kept', async () => {
    const one = JSON.stringify({ id: 'simple_3', question: 'Area?', function: doc }).replace(
      /}$/,
      ', "ground_truth": {"calc.area": {"interval": [[0.0, 2.5]]}}}',
    );
    const ok = await importBfcl({ questions: one });
    expect(ok.cases[0]?.metadata.bfcl).toEqual({
      category: 'simple',
      function: [doc],
      ground_truth: [{ 'calc.area': { interval: [[0, 2.5]] } }],
      float_literal_paths: ['/0/calc.area/interval/0/0'],
    });
  });

  it('irrelevance: docs kept, no possible answer', async () => {
    const result = await importBfcl({ questions: question('irrelevance_4', [doc]) });
    expect(result.cases[0]?.metadata.bfcl).toEqual({ category: 'irrelevance', function: [doc], ground_truth: [] });
  });
});

describe('metadata.bfcl survives export and import', () => {
  it('CSV and JSON Lines round trips keep it', async () => {
    const answers = '{"id": "simple_python_7", "ground_truth": [{"calc.area": {"interval": [[1.0, 3.0]], "n": [10, ""]}}]}';
    const imported = await importBfcl({ questions: question('simple_python_7', [doc]), answers });
    const collect = async (it: AsyncIterable<string>) => {
      let s = '';
      for await (const chunk of it) s += chunk;
      return s;
    };
    const viaCsv = await importCsv(await collect(exportCsv(imported.cases)));
    const viaJsonl = await importJsonl(await collect(exportJsonl(imported.cases)));
    expect(viaCsv.errors).toEqual([]);
    expect(viaCsv.cases[0]?.metadata.bfcl).toEqual(imported.cases[0]?.metadata.bfcl);
    expect(viaJsonl.cases[0]?.metadata.bfcl).toEqual(imported.cases[0]?.metadata.bfcl);
  });
});
