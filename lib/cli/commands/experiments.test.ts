import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';
import { sequentialMcNemar } from '../../statistics/index.js';
import { experimentsCommand } from './experiments.js';
import { retailCommandForTests } from './retailCli.test-helpers.js';

const experiments = retailCommandForTests(experimentsCommand);

describe('evalp experiments create|start|results|conclude', () => {
  it('runs the README example (sequential, simulated models A and B) end to end', async () => {
    const file = join(packageRoot(), 'examples', 'datasets', 'experiment.json');
    const created = (await experiments('create', '--file', file)).out;
    const match =
      /^created experiment (exp-[0-9a-f-]+) \(draft, sequential, 2 variants\); (\d+) paired cases give 80% power for 5\.0 points at alpha 0\.05\n$/.exec(
        created,
      );
    expect(match).not.toBeNull();
    const id = match![1]!;
    // Connor 1987 at discordance 0.15: (1.95996 sqrt(0.15) + 0.84162 sqrt(0.1475))^2 / 0.0025 = 468.57 -> 469
    expect(Number(match![2])).toBe(469);
    expect((await experiments('list')).out).toMatch(new RegExp(`│ ${id} +│ simulated model B vs simulated model A +│ draft`));
    expect((JSON.parse((await experiments('list', '--json')).out) as { id: string }[]).map((e) => e.id)).toContain(id);

    const started = (await experiments('start', id, '--wait')).out;
    expect(started).toMatch(new RegExp(`^started experiment ${id} on suite retail-demo version 1 \\(runs finished\\)\\n`));
    expect(started).toMatch(/│ model-a +│ [0-9a-f-]{36} │/);

    const json = JSON.parse((await experiments('results', id, '--json')).out);
    const c = json.comparisons[0];
    // the always-valid p-value of this (first) look is 1 / Lambda on the discordant pairs
    expect(c.p_value).toBeCloseTo(sequentialMcNemar(c.control_only, c.variant_only).p_value, 12);
    expect(json.variants.every((v: { scored: number }) => v.scored === 327)).toBe(true);

    const text = (await experiments('results', id)).out;
    expect(text).toMatch(/^experiment exp-.* \(running, sequential, alpha 0\.05, minimum sample 469 paired cases\)/);
    expect(text).toMatch(/│ model-a \(control\) │/);
    expect(text).toMatch(/model-b vs control: pass_rate [+-]\d+\.\d points \[[+-]\d+\.\d, [+-]\d+\.\d\] on 327 paired cases/);
    expect(text).toMatch(/Cohen's h -?\d\.\d{3}/);
    expect(text).toMatch(/always-valid p \d\.\d{4}/);
    expect(text).toMatch(/ {2}guardrail latency_ms \(at most 25% worse\): (passed|failed|inconclusive)/);
    expect(text).toMatch(/\nwinner: .+\nrecommendation: .+\n$/);

    const concluded = (await experiments('conclude', id)).out;
    expect(concluded).toMatch(new RegExp(`^concluded experiment ${id}: winner `));
    expect((await experiments('results', id)).out).toMatch(/\(concluded, sequential/);
    await expect(experiments('conclude', id)).rejects.toThrow(/409|only a running experiment/);
  }, 180_000);

  it('a bad file is refused naming the field', async () => {
    await expect(experiments('create', '--file', join(packageRoot(), 'package.json'))).rejects.toThrow(/hypothesis|variants/);
  });
});
