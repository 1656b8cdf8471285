/**
 * Test-case store benchmark (not a test): `npx tsx lib/adapters/embedded/testCaseStore.bench.ts [cases=400000]`.
 * Upserts realistic cases in batches of 1,000 on a temp SQLite file (the host's settings) and reports the rate of
 * the first 100,000; fills up to `cases`; then times listTestCases (page size 100, exact total) over a mix of
 * filters, listTestCaseIds and getTestCases. Environment: `IDS=uuid` (random ids), `BATCH=` (batch size of the
 * first 100,000), `UPSERT_ONLY=1`, `CACHE_MIB=` (page cache of the bench's connection), `BENCH_DIR=` (keep and
 * reuse the database).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCase, TestCaseFilter } from '../../domain/index.js';
import { openHostDatabase } from '../../host/database.js';
import { createRandom } from '../../../bench/fixtures/random.js';
import { EmbeddedTestCaseStore } from './testCaseStore.js';

const total = Number(process.argv[2] ?? 400_000);
/** cases per upsertTestCases call for the first 100,000 (`BATCH=`, default 1,000) */
const BATCH = Number(process.env.BATCH ?? 1_000);
const rnd = createRandom(11);
const WORDS = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}${'aeiou'[i % 5]}`).concat([
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
const VERSIONS = ['v1', 'v2', 'v3'];

function sentence(words: number): string {
  return Array.from({ length: words }, () => rnd.pick(WORDS)).join(' ');
}

/** `IDS=uuid` gives random ids (as generated ones are), which cost more to index than the sequential default. */
const caseId = (i: number): string => (process.env.IDS === 'uuid' ? randomUUID() : `case-${String(i).padStart(7, '0')}`);

function testCase(i: number): TestCase {
  const calls = rnd.int(1, 3);
  return {
    id: caseId(i),
    nl_query: sentence(rnd.int(8, 20)),
    expected_tool_calls: Array.from({ length: calls }, (_, k) => ({
      tool_name: `tool_${rnd.int(0, 40)}`,
      arguments: { city: rnd.pick(WORDS), date: '2026-03-01', limit: rnd.int(1, 50), [`opt_${k}`]: { value: rnd.next() } },
    })),
    alternative_tool_calls: [],
    call_order: 'any',
    expected_nl_response: sentence(rnd.int(10, 30)),
    expected_facts: [],
    metadata: {
      complexity_level: rnd.int(1, 5),
      tags: [...new Set(Array.from({ length: rnd.int(1, 4) }, () => TAGS[Math.floor(rnd.next() ** 2 * TAGS.length)]!))],
      category: rnd.pick(CATEGORIES),
      api_version: rnd.pick(VERSIONS),
      source: 'bench',
    },
  } as TestCase;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Fills up to `total`, re-upserts 1,000 existing cases, then times lists, id streams and getTestCases. */
async function measureReads(store: EmbeddedTestCaseStore, first: number, reuse: boolean): Promise<void> {
  let started = performance.now();
  for (let i = first; i < total && !reuse; i += 1_000)
    await store.upsertTestCases(Array.from({ length: Math.min(1_000, total - i) }, (_, k) => testCase(i + k)));
  started = performance.now();
  const existing: string[] = [];
  for await (const id of store.listTestCaseIds()) if (existing.push(id) >= 7_000) break;
  const updates = existing.filter((_, k) => k % 7 === 0).map((id, k) => ({ ...testCase(k), id }));
  await store.upsertTestCases(updates);
  console.log(`re-upsert 1,000 existing cases: ${(performance.now() - started).toFixed(1)} ms`);

  const filters: Array<[string, () => TestCaseFilter]> = [
    ['none', () => ({})],
    ['category', () => ({ category: rnd.pick(CATEGORIES) })],
    ['api_version', () => ({ api_version: rnd.pick(VERSIONS) })],
    ['complexity range', () => ({ complexity_min: rnd.int(1, 3), complexity_max: rnd.int(3, 5) })],
    ['complexity = 5', () => ({ complexity_min: 5, complexity_max: 5 })],
    ['tag (any, common)', () => ({ tags: [TAGS[rnd.int(0, 3)]!] })],
    ['tag (any, rare)', () => ({ tags: [TAGS[rnd.int(50, 59)]!] })],
    ['tags any x3', () => ({ tags: [rnd.pick(TAGS), rnd.pick(TAGS), rnd.pick(TAGS)] })],
    ['tags all x2', () => ({ tags: [TAGS[rnd.int(0, 5)]!, TAGS[rnd.int(6, 20)]!], tags_mode: 'all' })],
    ['q common word', () => ({ q: rnd.pick(['weather', 'invoice', 'order', 'flight']) })],
    ['q rare words', () => ({ q: `${rnd.pick(WORDS)} ${rnd.pick(WORDS)}` })],
    ['q prefix', () => ({ q: rnd.pick(['forec', 'invo', 'hot', 'zur']) })],
    ['q two words', () => ({ q: `${rnd.pick(['weather', 'invoice', 'order'])} ${rnd.pick(['tokyo', 'berlin', 'price'])}` })],
    ['category + complexity', () => ({ category: rnd.pick(CATEGORIES), complexity_min: 2, complexity_max: 4 })],
    ['category + tag + api', () => ({ category: rnd.pick(CATEGORIES), tags: [rnd.pick(TAGS)], api_version: rnd.pick(VERSIONS) })],
    ['q + category', () => ({ q: 'weather', category: rnd.pick(CATEGORIES) })],
    [
      'everything',
      () => ({ q: 'price', category: rnd.pick(CATEGORIES), tags: [TAGS[rnd.int(0, 9)]!], complexity_min: 2, api_version: 'v2' }),
    ],
  ];
  const all: number[] = [];
  for (const [name, make] of filters) {
    const times: number[] = [];
    let matched = 0;
    for (let r = 0; r < 30; r++) {
      const offset = r % 3 === 0 ? 0 : rnd.int(0, 20) * 100;
      const t = performance.now();
      const page = await store.listTestCases(make(), { limit: 100, offset });
      times.push(performance.now() - t);
      matched = page.total;
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    console.log(
      `list ${name.padEnd(24)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms  (last total ${matched})`,
    );
  }
  all.sort((a, b) => a - b);
  for (const q of ['w1', 'w1a']) {
    const t = performance.now();
    const page = await store.listTestCases({ q }, { limit: 100 });
    console.log(`list q "${q}" (a prefix of most words): ${(performance.now() - t).toFixed(0)} ms (total ${page.total})`);
  }
  console.log(
    `list, every filter: p50 ${percentile(all, 50).toFixed(1)} ms, p95 ${percentile(all, 95).toFixed(1)} ms, max ${all[all.length - 1]!.toFixed(1)} ms`,
  );

  for (const [name, filter] of [
    ['all', {}],
    ['category', { category: 'category-3' }],
    ['complexity 2-4', { complexity_min: 2, complexity_max: 4 }],
    ['tag', { tags: ['tag-1'] }],
    ['q weather', { q: 'weather' }],
  ] as Array<[string, TestCaseFilter]>) {
    started = performance.now();
    let n = 0;
    for await (const _id of store.listTestCaseIds(filter)) n++;
    console.log(`listTestCaseIds ${name}: ${n.toLocaleString('en-US')} ids in ${(performance.now() - started).toFixed(0)} ms`);
  }
  const ids = Array.from({ length: 5_000 }, () => rnd.pick(existing));
  started = performance.now();
  const got = await store.getTestCases(ids);
  console.log(`getTestCases of 5,000 ids picked at random among 7,000: ${got.length} in ${(performance.now() - started).toFixed(0)} ms`);
}

const keep = process.env.BENCH_DIR;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'evalp-tcbench-'));
const db = openHostDatabase(dir);
try {
  if (process.env.CACHE_MIB) db.pragma(`cache_size = -${Number(process.env.CACHE_MIB) * 1024}`);
  const store = new EmbeddedTestCaseStore(db);
  const reuse = (await store.countTestCases()) >= total;
  const first = reuse ? 0 : Math.min(100_000, total);
  let upsertMs = 0;
  let cpuMs = 0;
  for (let i = 0; i < first; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, first - i) }, (_, k) => testCase(i + k));
    const cpu = process.cpuUsage();
    const t = performance.now();
    await store.upsertTestCases(batch);
    upsertMs += performance.now() - t;
    const used = process.cpuUsage(cpu);
    cpuMs += (used.user + used.system) / 1_000;
  }
  if (!reuse) {
    const rate = Math.round(first / (upsertMs / 1000)).toLocaleString('en-US');
    console.log(
      `upsert ${first.toLocaleString('en-US')} cases (batches of ${BATCH.toLocaleString('en-US')}): ${rate} cases/s wall, ${((cpuMs * 1000) / first).toFixed(1)} µs/case CPU`,
    );
  }
  if (!process.env.UPSERT_ONLY) await measureReads(store, first, reuse);
  console.log(`peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
} finally {
  db.close();
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
