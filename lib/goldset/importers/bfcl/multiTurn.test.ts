import { describe, expect, it } from 'vitest';
import { importBfcl } from './bfclImporter.js';

// Lines in the shape of BFCL v3's multi-turn files (BFCL_v3_multi_turn_base.json, its possible answer and the
// multi_turn_func_doc files), written for this test: a file-system conversation of three turns.
const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');
const question = {
  id: 'multi_turn_base_0',
  question: [
    [{ role: 'user', content: "Move 'final_report.pdf' into a new folder 'temp' inside 'document'." }],
    [{ role: 'user', content: "Look for 'budget analysis' in that file." }],
    [{ role: 'user', content: 'Thanks, that is all.' }],
  ],
  initial_config: { GorillaFileSystem: { root: { workspace: { type: 'directory', contents: {} } } } },
  path: ['GorillaFileSystem.cd', 'GorillaFileSystem.mkdir', 'GorillaFileSystem.mv', 'GorillaFileSystem.grep'],
  involved_classes: ['GorillaFileSystem'],
};
const answer = {
  id: 'multi_turn_base_0',
  ground_truth: [
    ["cd(folder='document')", "mkdir(dir_name='temp')", "mv(source='final_report.pdf', destination='temp')"],
    ["grep(file_name='final_report.pdf', pattern='budget analysis')"],
    [],
  ],
};
const doc = (name: string, params: Record<string, string>) => ({
  name,
  description: `This tool belongs to the Gorilla file system. ${name}.`,
  parameters: {
    type: 'dict',
    properties: Object.fromEntries(Object.entries(params).map(([k, d]) => [k, { type: 'string', description: d }])),
    required: Object.keys(params),
  },
});
const fileSystemDocs = jsonl(
  doc('cd', { folder: 'folder' }),
  doc('mkdir', { dir_name: 'name' }),
  doc('mv', { source: 'from', destination: 'to' }),
  doc('grep', { file_name: 'file', pattern: 'pattern' }),
);

describe('BFCL multi-turn import', () => {
  it('imports the turns and the ground-truth calls of each turn as a conversation case, naming the state check it leaves out', async () => {
    const result = await importBfcl({
      questions: jsonl(question),
      answers: jsonl(answer),
      functions: { GorillaFileSystem: fileSystemDocs },
    });
    expect(result.errors).toEqual([]);
    const [tc] = result.cases;
    expect(tc?.turns?.map((t) => [t.user.slice(0, 12), t.expected_tool_calls.map((c) => c.tool_name)])).toEqual([
      ["Move 'final_", ['cd', 'mkdir', 'mv']],
      ["Look for 'bu", ['grep']],
      ['Thanks, that', []],
    ]);
    expect(tc?.turns?.[0]?.expected_tool_calls[2]).toEqual({
      tool_name: 'mv',
      arguments: { source: 'final_report.pdf', destination: 'temp' },
    });
    expect(tc?.nl_query).toBe(question.question[0]![0]!.content);
    expect(tc?.metadata.tags).toEqual(['bfcl', 'multi_turn_base', 'conversation', 'bfcl-class:GorillaFileSystem']);
    expect(result.catalogs[0]?.tools.map((t) => t.name)).toEqual(['cd', 'mkdir', 'mv', 'grep']);
    const notes = result.notes.map((n) => `${n.field}: ${n.message}`);
    expect(notes[0]).toMatch(/^initial_config: .*Not imported: BFCL's state check \(the end state of GorillaFileSystem after each turn/);
    expect(notes[1]).toMatch(/^ground_truth: turn\(s\) 3 expect no call/);
  });

  it('refuses what it cannot represent, saying why', async () => {
    const missFunc = { ...question, id: 'multi_turn_miss_func_0', missed_function: { '1': ['grep'] } };
    const noDocs = { ...question, id: 'multi_turn_base_1' };
    const badTurns = { ...question, id: 'multi_turn_base_2', question: 'just one question' };
    const result = await importBfcl({
      questions: jsonl(missFunc, noDocs, badTurns),
      answers: jsonl(
        { ...answer, id: 'multi_turn_miss_func_0' },
        { ...answer, id: 'multi_turn_base_1' },
        { ...answer, id: 'multi_turn_base_2' },
      ),
    });
    expect(result.cases).toEqual([]);
    expect(result.errors.map((e) => [e.id, e.field, e.reason.slice(0, 60)])).toEqual([
      ['multi_turn_miss_func_0', 'missed_function', 'functions added in the middle of the conversation (BFCL mult'],
      ['multi_turn_base_1', 'function', "no function docs for GorillaFileSystem: give BFCL's multi_tu"],
      ['multi_turn_base_2', 'question', 'expected a list of turns, each a list of messages'],
      ['multi_turn_base_2', 'function', "no function docs for GorillaFileSystem: give BFCL's multi_tu"],
    ]);
  });

  it('a gold call outside the docs, or turns that do not line up, are errors of the answer row', async () => {
    const result = await importBfcl({
      questions: jsonl(question),
      answers: jsonl({ id: 'multi_turn_base_0', ground_truth: [["rm(file_name='x')"], []] }),
      functions: { GorillaFileSystem: fileSystemDocs },
    });
    expect(result.errors.map((e) => [e.field, e.reason])).toEqual([
      ['ground_truth', 'has 2 turns but the question has 3'],
      ['ground_truth.0.0', 'function "rm" is not among the function docs of GorillaFileSystem'],
    ]);
  });
});
