import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparisonSchema } from '../../domain/index.js';
import { retailCards, storeRun } from '../../compare/retail.test-helpers.js';
import { startTestApi, type TestApi } from '../../api/routes/apiTestPlatform.test-helpers.js';
import { CliError } from '../cliError.js';
import { compareCommand } from './compare.js';

let api: TestApi;

async function evalp(...args: string[]): Promise<string> {
  let text = '';
  const command = compareCommand({ write: (t: string) => (text += t) }).exitOverride();
  await command.parseAsync([...args, '--url', api.platform.url, '--key', api.keys.reader], { from: 'user' });
  return text;
}

beforeAll(async () => {
  api = await startTestApi();
  const { stores } = api.platform.services;
  await storeRun(stores, 'cli-a', await retailCards('model-a'), { target_id: 'simulated-model-a' });
  await storeRun(stores, 'cli-b', await retailCards('model-b'), { target_id: 'simulated-model-b' });
}, 60_000);

afterAll(async () => {
  await api?.stop();
});

describe('evalp compare against a running platform', () => {
  it('prints runs side by side, the deltas with significance marks, flipped cases and the verdict', async () => {
    const out = await evalp('cli-a', 'cli-b', '--show-flipped', '2');
    const lines = out.split('\n');
    expect(out).toMatch(/pass rate \[CI\]\s+│ 87\.8% \[83\.8%, 90\.9%\]\s+│ 83\.2% \[78\.7%, 86\.8%\]/);
    expect(out).toMatch(/B vs A: 327 paired cases/);
    expect(lines.find((l) => /^│ overall /.test(l))).toMatch(
      /│ 327\s+│ 87\.8% │ 83\.2% │ -4\.6 \[-10\.1, \+0\.9\]\s+│ 49 \/ 34\s+│ 0\.12\s+│\s+│$/,
    );
    expect(lines.find((l) => /^│\s+refunds /.test(l))).toMatch(
      /│ 47\s+│ 89\.4% │ 59\.6% │ -29\.8 \[-46\.0, -11\.1\]\s+│ 18 \/ 4\s+│ 0\.035\s+│ \* +│$/,
    );
    // marked: the refunds regression and the semantics stage (stage p-values are not adjusted); no other category
    const marked = lines.filter((l) => /│ \*+ +│$/.test(l)).map((l) => l.split('│')[1]!.trim());
    expect(marked).toEqual(['semantics', 'refunds']);
    expect(out).toMatch(/flipped: 49 newly failing, 34 newly passing/);
    expect(lines.filter((l) => /A✓ → B✗|A✗ → B✓/.test(l))).toHaveLength(4);
    expect(out).toMatch(/Verdict: B is worse than A on refunds by 29\.8 points \(89\.4% → 59\.6%\)/);
  });

  it('--json prints the Comparison; --seed and --max-flipped reach the API', async () => {
    const json = ComparisonSchema.parse(JSON.parse(await evalp('cli-a', 'cli-b', '--json', '--seed', '9', '--max-flipped', '3')));
    expect(json.options).toMatchObject({ seed: 9, max_flipped: 3 });
    expect(json.pairs[0]!.flipped.newly_failing.cases).toHaveLength(3);
  });

  it.each([
    [['cli-a'], /give 2 to 10 run ids, got 1/],
    [['cli-a', 'cli-b', '--seed', 'x'], /--seed must be an integer, got x/],
    [['cli-a', 'missing'], /answered 404: run "missing" does not exist/],
    [['cli-a', 'cli-b', '--confidence', '2'], /answered 400.*\n\s+body\.options\.confidence:/],
  ])('%j fails with a CliError', async (args, message) => {
    const error = await evalp(...args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(message);
  });
});
