import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunReport, type ReportDeps } from './buildRunReport.js';
import { escapeHtml } from './escape.js';
import { chartJsSource } from './htmlCharts.js';
import { renderHtml } from './renderHtml.js';
import { renderJunit } from './renderJunit.js';
import type { RunReport } from './reportModel.js';
import { launchChromium } from './testing/chromium.test-helpers.js';
import { HOSTILE_QUESTION, retailRunsFixture, type RetailPlatform } from './testing/retailPlatform.test-helpers.js';

/** The bits of a page's canvas the test reads (this project compiles without the DOM library). */
interface PageCanvas {
  id: string;
  width: number;
  height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

let retail: RetailPlatform;
let deps: ReportDeps;
let report: RunReport;
let html: string;
let junit: string;
let dir: string;

beforeAll(async () => {
  const fixture = await retailRunsFixture();
  retail = fixture.retail;
  deps = { stores: retail.platform.services.stores, clock: retail.platform.services.clock };
  report = await buildRunReport(fixture.head.id, deps, { maxFailures: 1000, compareWith: fixture.base.id });
  html = renderHtml(report);
  junit = (await renderJunit(fixture.head.id, deps)).join('');
  dir = await mkdtemp(join(tmpdir(), 'evalp-html-'));
});
afterAll(async () => {
  await retail?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the HTML report of the retail sample (model B)', () => {
  it('is one self-contained page: inline chart.js, inline CSS, a CSP that forbids any fetch', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).toContain('Chart.js v4');
    // report data, chart.js, the chart script and the table script (sort, filter)
    expect(html.match(/<script\b/g)).toHaveLength(4);
    const ownMarkup = html.replace(chartJsSource(), '');
    expect(ownMarkup.length).toBeLessThan(html.length - 200_000);
    expect(ownMarkup).not.toMatch(/<(link|img|iframe|object|embed)\b|\bsrc=|@import|url\(|https?:\/\/(?!www\.chartjs\.org)/i);
    for (const id of ['chart-funnel', 'chart-categories', 'chart-latency', 'chart-flipped']) expect(html).toContain(`<canvas id="${id}">`);
  });

  it('shows the numbers of RunStats and every failing case', () => {
    expect(html).toContain('<b>83.2%</b><span class="meta">272 of 327 scored; 95% CI 78.7%–86.8%</span>');
    expect(html).toContain('<b>0.0%</b><span class="meta">0 of 327 not scored (target, MCP server, judge); left out of every rate</span>');
    expect(html).toContain('<tr><td>refunds</td><td class="n">47</td><td class="n">28</td><td>59.6% (45.3%–72.4%)</td></tr>');
    expect(html).toContain(`<h2>Failing cases (${report.stats.failed})</h2>`);
    const { newly_failing, newly_passing } = report.comparison!;
    expect(html.match(/<tr><td>retail-\d{4}<\/td>/g)).toHaveLength(
      report.stats.failed + newly_failing.cases.length + newly_passing.cases.length,
    );
  });

  it('shows the comparison with the base run and its flipped cases', () => {
    const pair = report.comparison!.comparison.pairs[0]!;
    expect(html).toContain(
      `<h2>Compared with base run ${report.comparison!.base_run.id} <span class="meta">(simulated-model-a, branch main, commit aaaaaaa1)</span></h2>`,
    );
    expect(html).toContain(`<p><b class="sig">${escapeHtml(pair.verdict)}</b></p>`);
    expect(html).toMatch(
      /<tr><td>refunds<\/td><td class="n">89\.4%<\/td><td class="n">59\.6%<\/td><td class="n">−29\.8 pts<\/td><td>[^<]+<\/td><td class="n">[\d.]+<\/td><td class="n">18 \/ 4<\/td><td><span class="sig">significant<\/span><\/td><\/tr>/,
    );
    expect(html).toContain(`<h3>Newly failing (${pair.flipped.newly_failing.total})</h3>`);
    const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!);
    expect(data.flipped.labels.indexOf('refunds')).toBeGreaterThanOrEqual(0);
    expect([
      data.flipped.newlyFailing[data.flipped.labels.indexOf('refunds')],
      data.flipped.newlyPassing[data.flipped.labels.indexOf('refunds')],
    ]).toEqual([-18, 4]);
    expect(data.categories.series.map((s: { label: string }) => s.label)).toEqual(['base run', 'this run']);
  });

  it('escapes a question holding markup (no script element comes from data)', () => {
    expect(html).toContain(`<td>${escapeHtml(HOSTILE_QUESTION)}</td>`);
    expect(html).not.toContain('<script>window.__xss');
    expect(html.indexOf('</script><script>window')).toBe(-1);
  });

  it('renders its charts in headless Chromium with no console error and no network request', async (ctx) => {
    const browser = await launchChromium((why) => ctx.skip(why));
    try {
      const file = join(dir, 'report.html');
      await writeFile(file, html);
      const page = await browser.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      const drawn = await page.evaluate(() => {
        const w = globalThis as unknown as { evalpCharts?: Array<{ canvas: PageCanvas; data: { labels: unknown[] } }>; __xss?: number };
        return {
          xss: w.__xss ?? null,
          charts: (w.evalpCharts ?? []).map((c) => {
            const { width, height } = c.canvas;
            const pixels = c.canvas.getContext('2d')!.getImageData(0, 0, width, height).data;
            let inked = 0;
            for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) inked += 1;
            return { id: c.canvas.id, labels: c.data.labels.length, inked: inked > 1000 };
          }),
        };
      });
      expect(drawn).toEqual({
        xss: null,
        charts: [
          { id: 'chart-funnel', labels: 5, inked: true },
          { id: 'chart-categories', labels: 8, inked: true },
          { id: 'chart-latency', labels: report.latency_histogram.bins.length, inked: true },
          { id: 'chart-flipped', labels: 8, inked: true },
        ],
      });
      expect(problems).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);

      // the browser's own XML parser accepts the JUnit report of the same run, hostile question included
      const parsed = await page.evaluate((xml) => {
        const { DOMParser } = globalThis as unknown as {
          DOMParser: new () => { parseFromString(text: string, type: string): { getElementsByTagName(name: string): { length: number } } };
        };
        const doc = new DOMParser().parseFromString(xml, 'application/xml');
        return {
          error: doc.getElementsByTagName('parsererror').length,
          cases: doc.getElementsByTagName('testcase').length,
          failures: doc.getElementsByTagName('failure').length,
        };
      }, junit);
      expect(parsed).toEqual({ error: 0, cases: 327, failures: report.stats.failed });

      // charts come first: the charts section starts above the first table and within the first screen
      const layout = (await page.evaluate(`(() => {
        const charts = document.querySelector('#chart-funnel').getBoundingClientRect().top + scrollY;
        const table = document.querySelector('table').getBoundingClientRect().top + scrollY;
        return { charts, table };
      })()`)) as { charts: number; table: number };
      expect(layout.charts).toBeLessThan(layout.table);
      expect(layout.charts).toBeLessThan(900);

      // the failing-cases table sorts by a header click and filters by text
      const failing = `[...document.querySelectorAll('table.sortable')].find((t) => t.getAttribute('data-label') === 'cases' && t.closest('section').querySelector('h2')?.textContent.startsWith('Failing'))`;
      const ids = async (): Promise<string[]> =>
        (await page.evaluate(`[...${failing}.tBodies[0].rows].filter((r) => !r.hidden).map((r) => r.cells[0].textContent)`)) as string[];
      const before = await ids();
      expect(before.length).toBe(Math.min(report.failures.total, report.failures.cases.length));
      await page.evaluate(`${failing}.tHead.rows[0].cells[0].querySelector('button').click()`);
      await page.evaluate(`${failing}.tHead.rows[0].cells[0].querySelector('button').click()`);
      const sorted = await ids();
      expect(sorted).toEqual([...before].sort().reverse());
      expect(await page.evaluate(`${failing}.tHead.rows[0].cells[0].getAttribute('aria-sort')`)).toBe('descending');
      const target = before[0]!;
      await page.evaluate(
        `(() => { const box = ${failing}.previousElementSibling; box.value = ${JSON.stringify(target)}; box.dispatchEvent(new Event('input')); })()`,
      );
      expect(await ids()).toEqual([target]);

      // each listed failure of this run carries expected vs actual calls side by side, differing lines marked
      const withCalls = report.failures.cases.filter((c) => c.expected_calls && c.actual_calls);
      expect(withCalls.length).toBe(report.failures.cases.length);
      expect(await page.evaluate(`${failing}.querySelectorAll('details.calls').length`)).toBe(withCalls.length);
      const first = report.failures.cases.find((c) => JSON.stringify(c.expected_calls) !== JSON.stringify(c.actual_calls))!;
      const cell = (await page.evaluate(
        `[...${failing}.tBodies[0].rows].find((r) => r.cells[0].textContent === ${JSON.stringify(first.test_case_id)}).querySelector('details.calls').textContent`,
      )) as string;
      expect(cell).toMatch(/expected vs actual calls \(\d+ lines? differ\)/);
      for (const call of first.expected_calls!) expect(cell).toContain(`"tool_name": "${call.tool_name}"`);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
