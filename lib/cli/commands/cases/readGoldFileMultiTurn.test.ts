import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoldFile } from './readGoldFile.js';

// BFCL multi-turn files in their shape (written for this test): the CLI's --functions Class=file reaches the importer.
describe('readGoldFile: BFCL multi-turn with --functions', () => {
  it('reads the function docs of each involved class from its file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalp-bfcl-mt-'));
    try {
      const question = {
        id: 'multi_turn_base_7',
        question: [[{ role: 'user', content: 'Go to the documents folder.' }], [{ role: 'user', content: 'Make a folder temp.' }]],
        involved_classes: ['GorillaFileSystem'],
        initial_config: { GorillaFileSystem: {} },
      };
      const answer = { id: 'multi_turn_base_7', ground_truth: [["cd(folder='documents')"], ["mkdir(dir_name='temp')"]] };
      const doc = (name: string, param: string) => ({
        name,
        description: name,
        parameters: { type: 'dict', properties: { [param]: { type: 'string', description: param } }, required: [param] },
      });
      await writeFile(join(dir, 'q.json'), JSON.stringify(question) + '\n');
      await writeFile(join(dir, 'a.json'), JSON.stringify(answer) + '\n');
      await writeFile(
        join(dir, 'fs.json'),
        [doc('cd', 'folder'), doc('mkdir', 'dir_name')].map((d) => JSON.stringify(d)).join('\n') + '\n',
      );
      const result = await readGoldFile(
        { file: join(dir, 'q.json'), format: 'bfcl', answers: join(dir, 'a.json'), functions: { GorillaFileSystem: join(dir, 'fs.json') } },
        { partial: false },
      );
      expect(result.errors).toEqual([]);
      expect(result.cases[0]?.turns?.map((t) => t.expected_tool_calls.map((c) => c.tool_name))).toEqual([['cd'], ['mkdir']]);
      const without = await readGoldFile({ file: join(dir, 'q.json'), format: 'bfcl', answers: join(dir, 'a.json') }, { partial: false });
      expect(without.errors[0]?.reason).toMatch(/^no function docs for GorillaFileSystem/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
