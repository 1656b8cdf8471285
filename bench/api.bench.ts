/**
 * npm run bench:api [-- --cases 100000 --stored 400000 --runs 3 --keep --import-only --profile-server DIR]
 *
 * The test-case API of a real platform: `evalp start --no-demo` in a child process (1 GiB V8 heap, as `npm start`)
 * and this process as its client, over HTTP on 127.0.0.1 (the per-key rate limit off: EVALP_API_RATE_LIMIT_RPS=0).
 * 1. import: `--runs` files of `--cases` JSON Lines cases (~700 B each) through `evalp cases import`'s code path
 *    (the whole file checked locally, then batches of 5,000), one fresh file per run; median of the runs. Then one
 *    file as a single `POST /api/v1/test-cases/import` (the raw API, all or nothing on the server), filling the store
 *    up to `--stored` cases;
 * 2. export: the `--cases` cases of the first file (`tags=file-0`), streamed JSON Lines, median of runs; then every
 *    case once;
 * 3. with `--stored` cases stored: `GET /api/v1/test-cases` at page size 100 over a mix of tag, category,
 *    complexity, api_version and full-text filters at offsets 0-2,000, `--runs` rounds; and near-duplicate searches.
 * Prints throughput (cases/s) and latency percentiles (p50/p95/p99, the median over rounds), peak RSS and sizes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createRandom, type Random } from './fixtures/random.js';
import { importCasesFile } from '../lib/cli/commands/cases/importCases.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '100000' },
    stored: { type: 'string', default: '400000' },
    runs: { type: 'string', default: '3' },
    keep: { type: 'boolean', default: false },
    // stop after part 1 (the imports): for iterating on import speed
    'import-only': { type: 'boolean', default: false },
    // the server writes a V8 CPU profile (node --cpu-prof) into this folder when it stops
    'profile-server': { type: 'string' },
  },
});
const perFile = Number(values.cases);
const runs = Number(values.runs);
const files = Math.max(runs + 1, Math.ceil(Number(values.stored) / perFile));
const root = new URL('../../', import.meta.url).pathname;
const rnd = createRandom(20_260_301);
const WORDS = Array.from({ length: 4_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`).concat([
  'weather',
  'forecast',
  'invoice',
  'refund',
  'order',
  'flight',
  'hotel',
  'berlin',
  'zürich',
  'tokyo',
  'price',
  'stock',
]);
const TAGS = Array.from({ length: 60 }, (_, i) => `tag-${i}`);
const CATEGORIES = Array.from({ length: 24 }, (_, i) => `category-${i}`);
const sentence = (r: Random, n: number): string => Array.from({ length: n }, () => r.pick(WORDS)).join(' ');
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** One realistic case (~700 B): 1-3 calls, 8-20 word question, 10-30 word answer, 1-4 tags (skewed), a category. */
function caseLine(file: number, i: number): string {
  const calls = rnd.int(1, 3);
  return JSON.stringify({
    id: `case-${file}-${String(i).padStart(6, '0')}`,
    nl_query: sentence(rnd, rnd.int(8, 20)),
    expected_tool_calls: Array.from({ length: calls }, (_, k) => ({
      tool_name: `tool_${rnd.int(0, 40)}`,
      arguments: {
        city: rnd.pick(WORDS),
        date: '2026-03-01',
        limit: rnd.int(1, 50),
        [`opt_${k}`]: { $one_of: [rnd.int(1, 9), rnd.int(10, 99)] },
      },
    })),
    expected_nl_response: sentence(rnd, rnd.int(10, 30)),
    metadata: {
      complexity_level: rnd.int(1, 5),
      tags: [
        ...new Set([`file-${file}`, ...Array.from({ length: rnd.int(1, 3) }, () => TAGS[Math.floor(rnd.next() ** 2 * TAGS.length)]!)]),
      ],
      category: rnd.pick(CATEGORIES),
      api_version: rnd.pick(['v1', 'v2', 'v3']),
      source: 'bench',
    },
  });
}

async function writeGoldFile(path: string, file: number): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < perFile; i++) if (!out.write(caseLine(file, i) + '\n')) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

/** `evalp start --no-demo` on a free port; resolves with its URL and the admin key it prints once. */
async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string; key: string }> {
  const child = spawn(
    process.execPath,
    [
      // the flags `npm start` runs the platform with
      '--max-old-space-size=1024',
      '--max-semi-space-size=64',
      ...(values['profile-server'] ? ['--cpu-prof', `--cpu-prof-dir=${values['profile-server']}`] : []),
      join(root, 'bin/evalp.js'),
      'start',
      '--no-demo',
      '--port',
      '0',
      '--data-dir',
      dataDir,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      // the per-key rate limit (50 requests/s by default) would answer 429 to a latency benchmark's back-to-back requests
      env: { ...process.env, EVALP_API_RATE_LIMIT_RPS: '0' },
    },
  );
  // a 'data' listener, not `for await`: leaving a for-await loop destroys the pipe, and the platform's next log line
  // would then die with EPIPE
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += String(chunk);
      const url = /running at (http:\/\/\S+)\/api/.exec(text)?.[1];
      const key = /^(evalp_\S+)$/m.exec(text)?.[1];
      if (url && key) resolve({ child, url, key });
    });
    child.once('exit', () => reject(new Error(`the platform did not start:\n${text}`)));
  });
}

/** CPU seconds (user + system) a process has used so far (/proc/<pid>/stat, clock ticks of 10 ms). */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMiB(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then((s) => Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024);
}

/** Thrown after part 1 with --import-only. */
class StopAfterImports extends Error {}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(`load average          ${load()} at the start (2 cores shared with other jobs)`);
const dir = await mkdtemp(join(tmpdir(), 'evalp-bench-api-'));
const paths = Array.from({ length: files }, (_, k) => join(dir, `gold-${k}.jsonl`));
const t0 = performance.now();
for (let k = 0; k < files; k++) await writeGoldFile(paths[k]!, k);
console.log(
  `gold files            ${files} x ${fmt(perFile)} cases, ${((await stat(paths[0]!)).size / perFile).toFixed(0)} B per case (written in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);
const server = await startServer(join(dir, 'data'));
const target = { url: server.url, key: server.key };
const auth = { authorization: `Bearer ${server.key}` };

try {
  // 1. import through the CLI's code path, one fresh file per run
  const imports: Array<{ total: number; validate: number; send: number; serverCpu: number }> = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    const cpu = await cpuSeconds(server.child.pid!);
    const s = await importCasesFile(target, { file: paths[k]!, format: 'jsonl' });
    const serverCpu = (await cpuSeconds(server.child.pid!)) - cpu;
    imports.push({ total: performance.now() - t, validate: s.validate_ms, send: s.send_ms, serverCpu });
    if (s.imported !== perFile) throw new Error(`run ${k}: imported ${s.imported}`);
    console.log(
      `  import run ${k + 1}: ${(imports[k]!.total / 1000).toFixed(2)} s (check ${(s.validate_ms / 1000).toFixed(2)} s + ${s.requests} requests ${(s.send_ms / 1000).toFixed(2)} s; server CPU ${serverCpu.toFixed(2)} s = ${((serverCpu * 1e6) / perFile).toFixed(0)} µs per case)`,
    );
  }
  const mid = median(imports.map((r) => r.total));
  console.log(
    `import (evalp cases)  ${fmt(perFile / (mid / 1000))} cases/s end to end (median of ${runs}: ${(mid / 1000).toFixed(2)} s per ${fmt(perFile)}); sending phase alone ${fmt(perFile / (median(imports.map((r) => r.send)) / 1000))} cases/s; server CPU ${((median(imports.map((r) => r.serverCpu)) * 1e6) / perFile).toFixed(0)} µs per case   (target >= 20,000)`,
  );
  for (let k = runs; k < files; k++) {
    const body = await readFile(paths[k]!, 'utf8');
    const t = performance.now();
    const cpu = await cpuSeconds(server.child.pid!);
    const res = await fetch(`${server.url}/api/v1/test-cases/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-ndjson' },
      body,
    });
    const s = (await res.json()) as { imported: number };
    const ms = performance.now() - t;
    const serverCpu = (await cpuSeconds(server.child.pid!)) - cpu;
    if (res.status !== 200 || s.imported !== perFile) throw new Error(`single request: ${res.status} ${JSON.stringify(s).slice(0, 300)}`);
    console.log(
      `import (one request)  ${fmt(perFile / (ms / 1000))} cases/s: ${fmt(perFile)} cases, ${(body.length / 1024 / 1024).toFixed(0)} MiB, one POST, with ${fmt(k * perFile)} already stored; server CPU ${((serverCpu * 1e6) / perFile).toFixed(0)} µs per case`,
    );
  }
  const stored = files * perFile;
  if (values['import-only']) throw new StopAfterImports();

  // 2. export
  const exportOnce = async (query: string): Promise<{ ms: number; lines: number; bytes: number }> => {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/v1/test-cases/export?${query}`, { headers: auth });
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body!) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines++;
    }
    return { ms: performance.now() - t, lines, bytes };
  };
  const exports = [];
  for (let r = 0; r < runs; r++) exports.push(await exportOnce('tags=file-0'));
  if (exports.some((e) => e.lines !== perFile)) throw new Error(`export returned ${exports.map((e) => e.lines)} lines`);
  const exportMs = median(exports.map((e) => e.ms));
  console.log(
    `export (tags=file-0)  ${fmt(perFile / (exportMs / 1000))} cases/s (median of ${runs}: ${(exportMs / 1000).toFixed(2)} s for ${fmt(perFile)} cases, ${(exports[0]!.bytes / 1024 / 1024).toFixed(0)} MiB streamed)`,
  );
  const all = await exportOnce('format=jsonl');
  console.log(
    `export (everything)   ${fmt(all.lines / (all.ms / 1000))} cases/s (${fmt(all.lines)} cases in ${(all.ms / 1000).toFixed(2)} s)`,
  );
  const exportedFirst = (await (await fetch(`${server.url}/api/v1/test-cases/export?tags=file-0`, { headers: auth })).text()).split(
    '\n',
    1,
  )[0]!;
  const original = JSON.parse((await readFile(paths[0]!, 'utf8')).split('\n', 1)[0]!) as { id: string };
  if ((JSON.parse(exportedFirst) as { id: string }).id !== original.id) throw new Error('export order differs from the import order');

  // 3. lists with `stored` cases
  const q = createRandom(7);
  const shapes: Array<[string, () => string]> = [
    ['no filter', () => ''],
    ['category', () => `category=${q.pick(CATEGORIES)}`],
    ['api_version', () => `api_version=${q.pick(['v1', 'v2', 'v3'])}`],
    ['complexity range', () => `complexity_min=${q.int(1, 3)}&complexity_max=${q.int(3, 5)}`],
    ['tag (common)', () => `tags=${TAGS[q.int(0, 3)]}`],
    ['tag (rare)', () => `tags=${TAGS[q.int(50, 59)]}`],
    ['tags any x3', () => `tags=${q.pick(TAGS)},${q.pick(TAGS)},${q.pick(TAGS)}`],
    ['tags all x2', () => `tags=${TAGS[q.int(0, 5)]},${TAGS[q.int(6, 20)]}&tags_mode=all`],
    ['q common word', () => `q=${q.pick(['weather', 'invoice', 'order', 'flight'])}`],
    ['q two rare words', () => `q=${encodeURIComponent(`${q.pick(WORDS)} ${q.pick(WORDS)}`)}`],
    ['q prefix', () => `q=${q.pick(['forec', 'invo', 'hot', 'zur'])}`],
    ['category + complexity', () => `category=${q.pick(CATEGORIES)}&complexity_min=2&complexity_max=4`],
    ['q + category', () => `q=weather&category=${q.pick(CATEGORIES)}`],
    ['tag + api + complexity', () => `tags=${q.pick(TAGS)}&api_version=v2&complexity_min=3`],
  ];
  const listOnce = async (query: string): Promise<number> => {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/v1/test-cases?${query}`, { headers: auth });
    const page = (await res.json()) as { items: unknown[]; total: number };
    if (res.status !== 200) throw new Error(`list ${query}: ${res.status}`);
    void page.total;
    return performance.now() - t;
  };
  for (let i = 0; i < 20; i++) await listOnce(`limit=100&${q.pick(shapes)[1]()}`); // warm-up
  const rounds: Array<{ p50: number; p95: number; p99: number }> = [];
  const perShape = new Map<string, number[]>();
  for (let r = 0; r < runs; r++) {
    const times: number[] = [];
    for (const [name, make] of shapes) {
      for (let i = 0; i < 12; i++) {
        const offset = i % 3 === 0 ? 0 : q.int(0, 20) * 100;
        const ms = await listOnce(`limit=100&offset=${offset}&${make()}`);
        times.push(ms);
        perShape.set(name, [...(perShape.get(name) ?? []), ms]);
      }
    }
    times.sort((a, b) => a - b);
    rounds.push({ p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99) });
  }
  const m = (k: 'p50' | 'p95' | 'p99'): string => median(rounds.map((r) => r[k])).toFixed(1);
  console.log(
    `list, ${fmt(stored)} stored  page 100, ${shapes.length} filter shapes x 12 queries x ${runs} rounds: p50 ${m('p50')} ms, p95 ${m('p95')} ms, p99 ${m('p99')} ms (median of rounds)   (target p95 <= 50 ms)`,
  );
  const slowest = [...perShape]
    .map(
      ([name, ts]) =>
        [
          name,
          pct(
            [...ts].sort((a, b) => a - b),
            95,
          ),
        ] as const,
    )
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4);
  console.log(`  slowest shapes (p95): ${slowest.map(([n, p]) => `${n} ${p.toFixed(1)} ms`).join(', ')}`);

  const known = (await readFile(paths[1]!, 'utf8'))
    .split('\n', 400)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; nl_query: string });
  const similar: number[] = [];
  for (let i = 0; i < 30 * runs; i++) {
    const original = q.pick(known);
    const words = original.nl_query.split(' ');
    words[q.int(0, words.length - 1)] = q.pick(WORDS);
    const t = performance.now();
    const res = await fetch(`${server.url}/api/v1/test-cases/similar`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ text: words.join(' '), limit: 5 }),
    });
    const found = (await res.json()) as { items: Array<{ id: string; score: number }> };
    similar.push(performance.now() - t);
    if (found.items[0]?.id !== original.id) throw new Error(`similar to ${original.id} found ${JSON.stringify(found).slice(0, 300)}`);
  }
  similar.sort((a, b) => a - b);
  console.log(
    `similar, ${fmt(stored)} stored  ${similar.length} near-duplicate queries (one word changed): p50 ${pct(similar, 50).toFixed(1)} ms, p95 ${pct(similar, 95).toFixed(1)} ms; the original found first every time`,
  );
  const db = join(dir, 'data', 'evalplatform.db');
  const dbBytes = (await stat(db)).size + (await stat(`${db}-wal`).catch(() => ({ size: 0 }))).size;
  console.log(
    `peak RSS              server ${fmt(await peakRssMiB(server.child.pid!))} MiB (1 GiB V8 heap cap), client ${fmt(process.resourceUsage().maxRSS / 1024)} MiB; database ${fmt(dbBytes / 1024 / 1024)} MiB`,
  );
  console.log(`load average          ${load()} at the end`);
} catch (err) {
  if (!(err instanceof StopAfterImports)) throw err;
  console.log(`load average          ${load()} at the end (--import-only)`);
} finally {
  server.child.kill('SIGTERM');
  await once(server.child, 'exit');
  if (!values.keep) await rm(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
