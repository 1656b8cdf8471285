/**
 * The judging walk-through (`npm run example:judging`): issue 13's "done when", end to end on one machine, with no
 * network beyond 127.0.0.1. The embedded platform on a temporary data dir; the scripted model server of
 * examples/retail-mcp playing a SIMULATED judge (`simulated-judge`: word and number overlap, not an LLM; its G-Eval
 * replies carry log-probabilities so the platform's probability weighting runs); the retail sample's two SIMULATED
 * models (generated outputs replayed). Every figure printed comes from the platform's API or CLI output.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '../../lib/api/index.js';
import { loadRetailSample } from '../../lib/app/demo.js';
import { main as evalp } from '../../lib/cli/main.js';
import { TestSuiteSchema } from '../../lib/domain/index.js';
import { silentLogger } from '../../lib/host/index.js';
import { startEmbeddedPlatform } from '../../lib/platform/embedded.js';
import { startScriptedModelServer, SIMULATED_JUDGE } from '../retail-mcp/scriptedModelServer.js';
import { CALIBRATION_PROVENANCE } from '../retail/generator/models/calibrationLabels.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const RETAIL = join(HERE, '..', 'retail');

export interface WalkthroughOptions {
  /** the first N retail cases (default all 327) */
  cases?: number;
  /** keep the data dir */
  keep?: boolean;
  /** where the printed lines go (default console.log) */
  log?: (line: string) => void;
}

interface CriterionOnCard {
  name: string;
  score: number;
  integer_score: number;
  method: string;
  probabilities?: number[];
}

/** What the walk-through printed, as the platform returned it (for its test). */
export interface WalkthroughResult {
  runs: { a: string; b: string };
  statuses: string[];
  /** `evalp report RUN_B`: the Judging section, before and after the calibration */
  judgingBefore: string;
  judgingAfter: string;
  exampleCriteria: CriterionOnCard[];
  /** `evalp compare A B --pairwise` */
  pairwise: string;
  /** the three annotators' task */
  task: { id: string; progress: string; consensus: Record<string, number>; agreement: string; calibration: string };
  /** the bundled calibration set's task */
  bundled: { id: string; imported: string; calibration: string };
  /** the stored calibration of the judge after both (the bundled set's) */
  stored: { kappa: number | null; raw_agreement: number | null; items: number; provenance: string; confusion: number[][] };
}

/** Runs `evalp ...args` in this process and returns what it printed; a non-zero exit is an error with its stderr. */
async function cli(args: string[]): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  process.stdout.write = ((chunk: string | Uint8Array) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    await evalp(['node', 'evalp', ...args]);
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  if (code !== 0) throw new Error(`evalp ${args.join(' ')} exited ${code}: ${err.join('')}`);
  return out.join('');
}

/** The "### Judging" section of a Markdown run report. */
function judgingSection(markdown: string): string {
  const start = markdown.indexOf('### Judging');
  if (start < 0) return '';
  const rest = markdown.slice(start + 1);
  const end = rest.search(/\n#{2,3} /);
  return (end < 0 ? markdown.slice(start) : markdown.slice(start, start + 1 + end)).trim();
}

/** FNV-1a: which items the noisy simulated annotator flips (a seeded tenth), the same on every run. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const catalogueLabels = (model: 'a' | 'b'): Map<string, string> =>
  new Map(
    readFileSync(join(RETAIL, `calibration-model-${model}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item: string; label: string })
      .map((r) => [r.item, r.label]),
  );

export async function runJudgingWalkthrough(options: WalkthroughOptions = {}): Promise<WalkthroughResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'evalp-example-judging-'));
  const judge = await startScriptedModelServer();
  // the judge settings come only from here: an OpenAI-compatible server on 127.0.0.1 (no Azure OpenAI)
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('AZURE_OPENAI_') && !k.startsWith('OPENAI_')));
  const platform = await startEmbeddedPlatform({
    dataDir,
    port: 0,
    hostname: '127.0.0.1',
    baseDir: RETAIL,
    logger: silentLogger,
    env: { ...env, OPENAI_BASE_URL: judge.openaiBaseUrl, OPENAI_API_KEY: 'simulated' },
  });
  const { services } = platform;
  const { key } = await createApiKey(
    services.apiKeys,
    { name: 'example:judging', roles: ['platform-admin', 'test-admin', 'suite-admin', 'runner', 'reader'] },
    services.clock,
  );
  const conn = ['--url', platform.url, '--key', key];
  const api = async <T>(method: string, path: string, body?: unknown, as = key): Promise<{ status: number; json: T }> => {
    const response = await fetch(`${platform.url}/api/v1/${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${as}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} /api/v1/${path} answered ${response.status}: ${text}`);
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as T };
  };

  try {
    await loadRetailSample(services, RETAIL);
    const all = await services.stores.suites.get('retail-demo');
    const ids = (all?.kind === 'static' ? all.test_case_ids : []).slice(0, options.cases ?? 327);
    const now = services.clock.now().toISOString();
    await services.stores.suites.upsert(
      TestSuiteSchema.parse({
        id: 'retail-judging',
        name: `Retail judging walk-through (${ids.length} cases)`,
        kind: 'static',
        test_case_ids: ids,
        created_at: now,
        updated_at: now,
      }),
    );
    log(`platform ${platform.url} (data ${dataDir})`);
    log(
      `SIMULATED judge "${SIMULATED_JUDGE}" at ${judge.openaiBaseUrl}: word and number overlap, not an LLM; G-Eval replies with log-probabilities`,
    );
    log(`SIMULATED models: simulated-model-a / simulated-model-b replay the sample's generated outputs`);

    // 1. both simulated models, G-Eval judge (five default criteria) and reference metrics beside it
    const config = {
      execution: { enabled: true, provider: 'recorded', cassette_path: join(RETAIL, 'cassette.jsonl') },
      semantics: {
        enabled: true,
        judge: 'openai',
        model: SIMULATED_JUDGE,
        reference_metrics: ['bleu', 'rouge1', 'rouge2', 'rougeL', 'chrf', 'embedding_cosine'],
      },
    };
    log(
      `\n$ POST /api/v1/runs x2: ${ids.length} retail cases on simulated-model-a and simulated-model-b, judge openai/${SIMULATED_JUDGE} (G-Eval)`,
    );
    const runIds: string[] = [];
    for (const target of ['simulated-model-a', 'simulated-model-b'])
      runIds.push((await api<{ id: string }>('POST', 'runs', { suite_id: 'retail-judging', target_id: target, config })).json.id);
    const [runA, runB] = runIds as [string, string];
    const statuses: string[] = [];
    for (const id of runIds) {
      for (;;) {
        const view = (await api<{ status: string; error: string | null }>('GET', `runs/${id}`)).json;
        if (['completed', 'degraded', 'failed', 'cancelled', 'timed_out'].includes(view.status)) {
          statuses.push(view.status);
          log(`run ${id}: ${view.status}${view.error ? ` (${view.error})` : ''}`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }

    // 2. per-criterion semantic scores and reference metrics of a run (its report), and one scorecard's criteria
    const judgingBefore = judgingSection(await cli(['report', runB, '--format', 'markdown', ...conn]));
    log(`\n$ evalp report ${runB}   (simulated-model-b; the Judging section)\n${judgingBefore}`);
    const cards = (
      await api<{
        items: Array<{ test_case_id: string; stages: { semantics: { score: number | null; details?: { criteria?: CriterionOnCard[] } } } }>;
      }>('GET', `runs/${runB}/scorecards?limit=1000`)
    ).json.items;
    // the lowest-scored judged answer of the run (ties: the first case id): where the criteria disagree most
    const example = cards
      .filter((c) => c.stages.semantics.details?.criteria?.length && c.stages.semantics.score !== null)
      .sort((x, y) => x.stages.semantics.score! - y.stages.semantics.score! || x.test_case_id.localeCompare(y.test_case_id))[0];
    const exampleCriteria = example?.stages.semantics.details?.criteria ?? [];
    if (example) {
      log(
        `\n$ GET /api/v1/runs/${runB}/scorecards: the lowest-scored answer, ${example.test_case_id}, semantic score ${example.stages.semantics.score?.toFixed(3)}`,
      );
      for (const c of exampleCriteria)
        log(
          `  ${c.name.padEnd(13)} ${c.score.toFixed(3)} (${c.method}; integer ${c.integer_score}; p(1..5) ${(c.probabilities ?? []).map((p) => p.toFixed(2)).join(' ')})`,
        );
    }

    // 3. pairwise verdicts on the two runs
    const pairwise = await cli(['compare', runA, runB, '--pairwise', '--model', SIMULATED_JUDGE, ...conn]);
    log(`\n$ evalp compare ${runA} ${runB} --pairwise --model ${SIMULATED_JUDGE}\n${pairwise.trimEnd()}`);

    // 4. an annotation task over run B, worked by three annotators through GET next / PUT label
    const taskId = 'walkthrough-three-annotators';
    const created = await cli([
      'annotations',
      'create',
      '--id',
      taskId,
      '--name',
      'Is the answer acceptable? (simulated annotators)',
      '--run',
      runB,
      '--schema',
      'pass_fail',
      '--per-item',
      '3',
      '--instructions',
      "SIMULATED annotators: two replay the labels generated from the retail sample's mistake catalogue, the third flips a seeded tenth of them; not human raters",
      ...conn,
    ]);
    log(`\n$ evalp annotations create --run ${runB} --schema pass_fail --per-item 3 ...\n${created.trimEnd()}`);
    const labels = catalogueLabels('b');
    const annotators = [
      { name: 'catalogue-derived-1', noisy: false },
      { name: 'catalogue-derived-2', noisy: false },
      { name: 'catalogue-derived-noisy-3', noisy: true },
    ];
    const legend: string[] = [];
    await Promise.all(
      annotators.map(async (a) => {
        const made = await createApiKey(services.apiKeys, { name: a.name, roles: ['annotator'] }, services.clock);

        let given = 0;
        let skipped = 0;
        for (;;) {
          const next = await api<{ item_id: string } | undefined>('GET', `annotation-tasks/${taskId}/next`, undefined, made.key);
          if (next.status === 204 || !next.json) break;
          const item = next.json.item_id;
          const label = labels.get(item);
          // the catalogue fixes no label for this answer: leave it (the claim lapses after 30 minutes)
          if (!label) {
            skipped++;
            continue;
          }
          const flip = a.noisy && fnv1a(item) % 10 === 0;
          await api(
            'PUT',
            `annotation-tasks/${taskId}/items/${encodeURIComponent(item)}/label`,
            {
              label: flip ? (label === 'pass' ? 'fail' : 'pass') : label,
              comment: flip ? 'simulated disagreement (seeded flip)' : 'replays the catalogue-derived label',
            },
            made.key,
          );
          given++;
        }
        legend.push(
          `${a.name} (annotator id ${made.record.id}): ${given} labels submitted, ${skipped} items left unlabelled (no catalogue label)`,
        );
      }),
    );
    log(`three SIMULATED annotators worked the task through GET .../next and PUT .../label:\n  ${legend.sort().join('\n  ')}`);
    const progress = await cli(['annotations', 'progress', taskId, ...conn]);
    log(`\n$ evalp annotations progress ${taskId}\n${progress.trimEnd()}`);
    const exported = (await cli(['annotations', 'export', taskId, ...conn]))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { item_id: string; consensus: string | null; support: number; labels: Array<{ label: string }> });
    const consensus: Record<string, number> = {};
    for (const row of exported) {
      const k = row.labels.length === 0 ? 'no labels' : String(row.consensus);
      consensus[k] = (consensus[k] ?? 0) + 1;
    }
    const split = exported.find((r) => r.labels.length === 3 && r.support < 1);
    log(
      `\n$ evalp annotations export ${taskId}: ${exported.length} items; consensus ${Object.entries(consensus)
        .map(([k, n]) => `${k} ${n}`)
        .join(
          ', ',
        )}${split ? `\n  e.g. ${JSON.stringify({ item_id: split.item_id, labels: split.labels.map((l) => l.label), consensus: split.consensus, support: split.support })}` : ''}`,
    );
    const agreement = await cli(['annotations', 'agreement', taskId, ...conn]);
    log(`\n$ evalp annotations agreement ${taskId}\n${agreement.trimEnd()}`);
    const calibration = await cli([
      'annotations',
      'calibrate',
      taskId,
      '--provenance',
      "three SIMULATED annotators replaying labels generated from the retail sample's mistake catalogue (one flips a seeded tenth), not human raters",
      ...conn,
    ]);
    log(`\n$ evalp annotations calibrate ${taskId}\n${calibration.trimEnd()}`);

    // 5. the bundled calibration set: a task over run A, its catalogue-derived labels imported
    const bundledId = 'retail-calibration-model-a';
    await cli([
      'annotations',
      'create',
      '--id',
      bundledId,
      '--name',
      'Retail calibration set, simulated model A (catalogue-derived labels)',
      '--run',
      runA,
      '--schema',
      'pass_fail',
      '--per-item',
      '1',
      '--instructions',
      CALIBRATION_PROVENANCE,
      ...conn,
    ]);
    let file = join(RETAIL, 'calibration-model-a.jsonl');
    if (ids.length < 327) {
      // a shorter walk-through: only the labels of the cases it ran
      const keep = new Set(ids);
      const rows = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => keep.has((JSON.parse(l) as { item: string }).item));
      file = join(dataDir, 'calibration-model-a.jsonl');
      writeFileSync(file, `${rows.join('\n')}\n`);
    }
    const imported = await cli(['annotations', 'import', bundledId, '--file', file, '--provenance', CALIBRATION_PROVENANCE, ...conn]);
    log(
      `\n$ evalp annotations import ${bundledId} --file examples/retail/calibration-model-a.jsonl${ids.length < 327 ? ' (the rows of these cases)' : ''} --provenance "..."\n${imported.trimEnd()}`,
    );
    const bundledCalibration = await cli(['annotations', 'calibrate', bundledId, ...conn]);
    log(`\n$ evalp annotations calibrate ${bundledId}\n${bundledCalibration.trimEnd()}`);

    const judgingAfter = judgingSection(await cli(['report', runB, '--format', 'markdown', ...conn]));
    const calibrated = judgingAfter.split('\n').find((l) => l.startsWith('judge ')) ?? '';
    log(`\n$ evalp report ${runB}   (the judge's line in the Judging section now)\n${calibrated}`);
    const stored = (
      await api<{
        items: Array<{ kappa: number | null; raw_agreement: number | null; items: number; provenance: string; confusion: number[][] }>;
      }>('GET', 'judge-calibrations')
    ).json.items[0]!;
    log(`\ndone in ${((Date.now() - started) / 1000).toFixed(1)} s; judge requests served: ${judge.requests.openai}`);
    return {
      runs: { a: runA, b: runB },
      statuses,
      judgingBefore,
      judgingAfter,
      exampleCriteria,
      pairwise,
      task: { id: taskId, progress, consensus, agreement, calibration },
      bundled: { id: bundledId, imported, calibration: bundledCalibration },
      stored,
    };
  } finally {
    await platform.stop({ timeoutInMs: 10_000 });
    await judge.close();
    if (!options.keep) rmSync(dataDir, { recursive: true, force: true });
  }
}
