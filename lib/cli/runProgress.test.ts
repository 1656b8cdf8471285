import { describe, expect, it } from 'vitest';
import { RunSchema, type RunStats } from '../domain/index.js';
import { runsTable, type RunView } from './runProgress.js';

function view(overrides: Partial<RunView>): RunView {
  const run = RunSchema.parse({
    id: 'r1',
    client_id: null,
    suite_id: 's',
    target_id: 't',
    status: 'completed',
    config: {},
    triggered_by: 'api',
    baseline_run_id: null,
    total_cases: 9,
    shard_count: 1,
    created_at: '2026-11-26T00:00:00.000Z',
    started_at: null,
    completed_at: null,
    deadline_at: '2026-11-27T00:00:00.000Z',
  });
  return { ...run, progress_pct: 100, stats: null as RunStats | null, ...overrides };
}

describe('evalp status table', () => {
  it('shows why a run failed', () => {
    const table = runsTable([
      {
        label: 'r1',
        view: view({ status: 'failed', error: 'stage-3 configuration (config.execution): cassette /x.jsonl does not exist' }),
      },
    ]);
    expect(table).toMatch(/error[\s│]+stage-3 configuration \(config\.execution\): cassette \/x\.jsonl does not exist/);
  });

  it('shows pass@1, pass@k, pass^k and the flaky cases of a run with trials; nothing of it without', () => {
    const trial_stats = {
      trials: 3,
      cases: 3,
      complete_cases: 3,
      pass_at_1: 5 / 9,
      pass_at_k: 2 / 3,
      pass_hat_k: 1 / 3,
      flaky_cases: 1,
      flaky_case_ids: ['weather-flaky'],
    };
    const table = runsTable([{ label: 'r1', view: view({ trial_stats }) }]);
    expect(table).toMatch(/trials[\s│]+3 per case \(3\/3 cases complete\)/);
    expect(table).toMatch(/pass@1 \(mean over trials\)[\s│]+55\.6%/);
    expect(table).toMatch(/pass@k[\s│]+66\.7%/);
    expect(table).toMatch(/pass\^k[\s│]+33\.3%/);
    expect(table).toMatch(/flaky cases[\s│]+1 \(weather-flaky\)/);
    const plain = runsTable([{ label: 'r1', view: view({}) }]);
    expect(plain).not.toMatch(/pass\^k|│ error +│/);
  });
});
