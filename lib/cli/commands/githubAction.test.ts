import { storedRunOf } from '../../ports/contracts/fixtures.js';
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/packageRoot.js';
import { TargetSystemSchema, type Run, type RunStats } from '../../domain/index.js';
import { REPORT_MARKER } from '../../reports/index.js';
import { RETAIL_DIR, startRetailPlatform, type RetailPlatform } from '../../reports/testing/retailPlatform.test-helpers.js';
import { demoRunConfig } from '../../app/demo.js';

const ACTION_DIR = join(packageRoot(), '.github', 'actions', 'evaluate');
const ACTION = join(ACTION_DIR, 'action.yml');

/** The steps of action.yml as text blocks, with their env keys and the script each runs. */
function actionSteps(yml: string): Array<{ name: string; env: string[]; script: string | undefined; text: string }> {
  const steps = yml
    .slice(yml.indexOf('\n  steps:\n'))
    .split(/\n {4}- name: /)
    .slice(1);
  return steps.map((text) => ({
    name: text.split('\n')[0]!,
    env: [...text.matchAll(/^ {8}([A-Z_]+): /gm)].map((m) => m[1]!),
    script: /scripts\/([a-z-]+\.sh)/.exec(text)?.[1],
    text,
  }));
}

describe('the evaluate action (action.yml)', () => {
  it('declares every input it uses, runs scripts that exist and gives each the variables it reads', async () => {
    const yml = await readFile(ACTION, 'utf8');
    const block = (name: string): string => yml.slice(yml.indexOf(`\n${name}:\n`) + name.length + 3).split(/\n(?=\S)/)[0]!;
    const declared = [...block('inputs').matchAll(/^ {2}([a-z-]+):$/gm)].map((m) => m[1]);
    const used = [...new Set([...yml.matchAll(/inputs\.([a-z-]+)/g)].map((m) => m[1]))];
    expect(used.filter((u) => !declared.includes(u))).toEqual([]);
    expect(declared.filter((d) => !used.includes(d))).toEqual([]);
    expect(block('inputs')).toMatch(/ {2}url:\n {4}description: .*\n {4}required: true/);
    expect(block('inputs')).toMatch(/ {2}api-key:\n {4}description: .*\n {4}required: true/);
    for (const step of actionSteps(yml).filter((s) => s.script)) {
      const script = await readFile(join(ACTION_DIR, 'scripts', step.script!), 'utf8');
      const assigned = new Set([...script.matchAll(/(?:^|\s)([A-Za-z_]+)=/gm)].map((m) => m[1]));
      const read = [...new Set([...script.matchAll(/\$\{?([A-Z][A-Z_]+)/g)].map((m) => m[1]!))];
      const provided = (v: string): boolean =>
        step.env.includes(v) || assigned.has(v) || /^(GITHUB|RUNNER)_/.test(v) || v === 'EVALP_BIN' || v === 'DEBIAN_FRONTEND';
      expect({ step: step.name, missing: read.filter((v) => !provided(v)) }).toEqual({ step: step.name, missing: [] });
    }
    const wait = actionSteps(yml).find((s) => s.script === 'wait-run.sh')!;
    expect(await readFile(join(ACTION_DIR, 'scripts', 'wait-run.sh'), 'utf8')).toContain(
      '"${evalp[@]}" wait "$RUN_ID" --fail-on "$FAIL_ON" --timeout "$TIMEOUT"',
    );
    expect(wait.text).toContain('FAIL_ON: ${{ inputs.fail-on }}');
    expect(yml).toContain('uses: actions/upload-artifact@v4');
  });

  it('the example workflow uses it with the EVALP_URL and EVALP_API_KEY secrets, and CI runs .ci/run', async () => {
    const workflow = await readFile(join(packageRoot(), '.github', 'workflows', 'evalplatform.yml'), 'utf8');
    expect(workflow).toContain('uses: ./.github/actions/evaluate');
    expect(workflow).toContain('url: ${{ secrets.EVALP_URL }}');
    expect(workflow).toContain('api-key: ${{ secrets.EVALP_API_KEY }}');
    expect(await readFile(join(packageRoot(), '.github', 'workflows', 'ci.yml'), 'utf8')).toContain('run: bash .ci/run');
  });
});

/** A stand-in for `gh api` (GitHub's REST API): comments of one PR kept in a JSON file. */
const FAKE_GH = String.raw`#!/usr/bin/env bash
set -euo pipefail
state="$FAKE_GH_STATE"
echo "$*" >> "$state.log"
[[ "$1" == api ]] || exit 2
shift
method=GET input="" path=""
while [[ $# -gt 0 ]]; do case "$1" in -X) method="$2"; shift 2 ;; --input) input="$2"; shift 2 ;; --paginate) shift ;; *) path="$1"; shift ;; esac; done
case "$method $path" in
  "GET repos/acme/shop/issues/42/comments") cat "$state" ;;
  "POST repos/acme/shop/issues/42/comments") jq --slurpfile b "$input" '. + [{id: (length + 1001), body: $b[0].body}]' "$state" > "$state.tmp"; mv "$state.tmp" "$state"; echo '{}' ;;
  "PATCH repos/acme/shop/issues/comments/"*) jq --slurpfile b "$input" --argjson id "$(basename "$path")" 'map(if .id == $id then .body = $b[0].body else . end)' "$state" > "$state.tmp"; mv "$state.tmp" "$state"; echo '{}' ;;
  *) echo "fake gh: unexpected $method $path" >&2; exit 1 ;;
esac
`;

describe("the evaluate action's scripts against a real embedded platform", () => {
  let retail: RetailPlatform;
  let base: Run & { stats: RunStats };
  let dir: string;
  let github: Record<string, string>;

  const bash = (script: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile('bash', [join(ACTION_DIR, 'scripts', script)], { env: { ...process.env, ...github, ...env } }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const outputs = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      (await readFile(github.GITHUB_OUTPUT!, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );

  beforeAll(async () => {
    retail = await startRetailPlatform();
    const { stores } = retail.platform.services;
    // one agent target whose recorded behaviour changes between main (model A) and the pull request (model B)
    const agent = async (outputs: string, updatedAt: string): Promise<void> => {
      const b = (await stores.targets.get('simulated-model-b'))!;
      const { _etag, ...target } = b as typeof b & { _etag?: string };
      await stores.targets.upsert(
        TargetSystemSchema.parse({
          ...target,
          id: 'retail-agent',
          settings: { kind: 'replay', outputs_path: join(RETAIL_DIR, outputs) },
          updated_at: updatedAt,
        }),
      );
    };
    await agent('outputs-model-a.jsonl', '2026-10-01T00:00:00.000Z');
    base = await retail.runModel('retail-agent', { branch: 'main', repository: 'acme/shop', commit_sha: 'aaaaaaa1' });
    // newer completed runs that must not be taken as the base: another repository's main, another branch
    for (const [id, meta] of [
      ['decoy-other-repo', { branch: 'main', repository: 'other/repo' }],
      ['decoy-branch', { branch: 'release', repository: 'acme/shop' }],
    ] as const) {
      await stores.runs.createRun({ ...strip(base), id, trigger_metadata: meta, created_at: new Date(Date.now() + 60_000).toISOString() });
    }
    await agent('outputs-model-b.jsonl', '2026-10-02T00:00:00.000Z');
    dir = await mkdtemp(join(tmpdir(), 'evalp-action-'));
    await writeFile(join(dir, 'gh'), FAKE_GH);
    await chmod(join(dir, 'gh'), 0o755);
    await writeFile(join(dir, 'comments.json'), JSON.stringify([{ id: 7, body: 'LGTM' }]));
    github = {
      GITHUB_ACTION_PATH: ACTION_DIR,
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_ENV: join(dir, 'env'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      PATH: `${dir}:${process.env.PATH}`,
      FAKE_GH_STATE: join(dir, 'comments.json'),
    };
  });
  afterAll(async () => {
    await retail?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const strip = (run: unknown): Run => storedRunOf(run);

  it("starts a run with the base branch's latest run as baseline, waits, reports, comments once and fails on the regression", async (ctx) => {
    for (const tool of ['jq', 'curl']) {
      const has = await new Promise((r) => execFile('bash', ['-c', `command -v ${tool}`], (e) => r(!e)));
      if (!has) {
        if (process.env.CI) throw new Error(`${tool} is needed by the action's scripts`);
        ctx.skip(`${tool} is not installed`);
      }
    }
    const conn = { EVALP_URL: retail.url, EVALP_API_KEY: retail.key };
    expect(
      (await bash('setup-cli.sh', { EVALP_CLI_INPUT: `${process.execPath} --import tsx ${join(packageRoot(), 'lib/cli/main.ts')}` })).code,
    ).toBe(0);
    const evalpBin = (await readFile(github.GITHUB_ENV!, 'utf8')).trim().replace(/^EVALP_BIN=/, '');

    const start = await bash('start-run.sh', {
      ...conn,
      INPUT_SUITE: 'retail-demo',
      INPUT_TARGET: 'retail-agent',
      INPUT_CLIENT: '',
      INPUT_PROFILE: 'nightly',
      INPUT_CONFIG: JSON.stringify(demoRunConfig(RETAIL_DIR)),
      BASE_BRANCH: 'main',
      HEAD_SHA: 'bbbbbbb2',
      HEAD_BRANCH: 'feature/refunds',
      PR_NUMBER: '42',
      REPOSITORY: 'acme/shop',
      WORKFLOW_RUN_URL: 'https://github.com/acme/shop/actions/runs/1',
    });
    expect(start.stdout).toContain(`Base run: ${base.id} (latest completed run on main)`);
    const { 'run-id': runId, 'base-run-id': baseRunId } = await outputs();
    expect(baseRunId).toBe(base.id);
    const run = (await retail.platform.services.stores.runs.getRun(runId!))!;
    expect([run.triggered_by, run.baseline_run_id, run.target_id, run.config.profile, run.trigger_metadata]).toEqual([
      'github',
      base.id,
      'retail-agent',
      'nightly',
      {
        commit_sha: 'bbbbbbb2',
        branch: 'feature/refunds',
        repository: 'acme/shop',
        workflow_run_url: 'https://github.com/acme/shop/actions/runs/1',
        pr_number: 42,
      },
    ]);

    const step = {
      ...conn,
      EVALP_BIN: evalpBin,
      RUN_ID: runId!,
      BASE_RUN_ID: baseRunId!,
      FAIL_ON: 'high',
      TIMEOUT: '2m',
      REPORT_DIR: join(dir, 'report'),
    };
    const waited = await bash('wait-run.sh', step);
    expect(waited.code).toBe(0);
    expect(waited.stderr).toContain('evalp wait: regression: ');
    expect((await outputs())['exit-code']).toBe('1');

    expect((await bash('write-reports.sh', step)).code).toBe(0);
    expect((await readdir(join(dir, 'report'))).sort()).toEqual(['report.html', 'report.json', 'report.md', 'report.xml']);
    const summary = await readFile(github.GITHUB_STEP_SUMMARY!, 'utf8');
    expect(summary.startsWith(`${REPORT_MARKER}\n## ❌ EvalPlatform: retail-agent on retail-demo: 83.2% passed`)).toBe(true);
    expect(summary).toContain(`### Compared with base run ${base.id}`);
    expect(summary).toMatch(/\| refunds \| 89\.4% \| 59\.6% \| −29\.8 pts \|/);

    const comment = { REPOSITORY: 'acme/shop', PR_NUMBER: '42', REPORT_FILE: join(dir, 'report', 'report.md'), GH_TOKEN: 'x' };
    expect((await bash('pr-comment.sh', comment)).stdout).toContain('Posted the report on #42');
    await writeFile(join(dir, 'report', 'report.md'), `${REPORT_MARKER}\nsecond push`);
    expect((await bash('pr-comment.sh', comment)).stdout).toContain('Updated the report comment 1002 on #42');
    expect(JSON.parse(await readFile(github.FAKE_GH_STATE!, 'utf8'))).toEqual([
      { id: 7, body: 'LGTM' },
      { id: 1002, body: `${REPORT_MARKER}\nsecond push` },
    ]);

    for (const [code, expected] of [
      ['0', 0],
      ['1', 1],
      ['3', 3],
      ['', 2],
    ] as const) {
      expect((await bash('finish.sh', { WAIT_EXIT_CODE: code, FAIL_ON: 'high', RUN_ID: runId! })).code).toBe(expected);
    }
  }, 60_000);

  it("fails with code 2 and the API's reason when the run cannot start", async () => {
    const r = await bash('start-run.sh', {
      EVALP_URL: retail.url,
      EVALP_API_KEY: retail.key,
      INPUT_SUITE: 'no-such-suite',
      INPUT_TARGET: 'retail-agent',
      INPUT_PROFILE: 'ci',
      BASE_BRANCH: 'main',
      HEAD_SHA: 'bbbbbbb2',
      HEAD_BRANCH: 'x',
      REPOSITORY: 'acme/shop',
      WORKFLOW_RUN_URL: 'https://github.com/acme/shop/actions/runs/2',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('::error::POST /api/v1/runs answered 422');
    expect(r.stderr).toContain('body.suite_id: does not exist');
  });
});
