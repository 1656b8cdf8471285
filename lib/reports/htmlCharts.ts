import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RunReport } from './reportModel.js';

let chartJs: string | undefined;

/** Chart.js's UMD build, read from node_modules on first use (inlined so the page opens offline). */
export function chartJsSource(): string {
  if (chartJs === undefined) {
    const entry = createRequire(import.meta.url).resolve('chart.js');
    chartJs = readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
    // the page inlines it in a <script> element: it must not be able to close that element
    if (/<\/script/i.test(chartJs)) throw new Error('chart.umd.min.js contains "</script" and cannot be inlined');
  }
  return chartJs;
}

/** The numbers the page's charts draw (embedded as JSON; labels are user data, drawn on canvas as text). */
export interface ChartData {
  funnel: { labels: string[]; values: number[]; ran: number[] };
  categories: {
    labels: string[];
    series: Array<{ label: string; values: Array<number | null>; intervals: Array<[number, number] | null> }>;
  };
  latency: { labels: string[]; values: number[] };
  flipped: { labels: string[]; newlyFailing: number[]; newlyPassing: number[] } | null;
}

const percent = (x: number | null): number | null => (x === null ? null : Math.round(x * 10000) / 100);
const interval = (lo: number | null, hi: number | null): [number, number] | null =>
  lo === null || hi === null ? null : [percent(lo)!, percent(hi)!];

export function chartData(report: RunReport): ChartData {
  const pair = report.comparison?.comparison.pairs[0];
  const baseById = new Map((pair?.by_category ?? []).map((g) => [g.key, g]));
  const labels = report.categories.map((c) => c.category);
  const head = {
    label: report.comparison ? 'this run' : 'pass rate',
    values: report.categories.map((c) => percent(c.rate.rate)),
    intervals: report.categories.map((c) => interval(c.rate.lower, c.rate.upper)),
  };
  const base = pair && {
    label: 'base run',
    values: labels.map((l) => percent(baseById.get(l)?.baseline.rate ?? null)),
    intervals: labels.map((l) => {
      const b = baseById.get(l)?.baseline;
      return b ? interval(b.lower, b.upper) : null;
    }),
  };
  const flippedGroups = (pair?.by_category ?? []).filter((g) => g.newly_failing + g.newly_passing > 0);
  return {
    funnel: {
      labels: ['all cases', ...report.funnel.map((f) => f.stage)],
      values: [report.stats.completed, ...report.funnel.map((f) => f.remaining)],
      ran: [report.stats.completed, ...report.funnel.map((f) => f.ran)],
    },
    categories: { labels, series: base ? [base, head] : [head] },
    latency: {
      labels: report.latency_histogram.bins.map((b) => (b.to_ms === null ? `≥ ${b.from_ms}` : `${b.from_ms}–${b.to_ms}`)),
      values: report.latency_histogram.bins.map((b) => b.count),
    },
    flipped: pair
      ? {
          labels: flippedGroups.map((g) => g.key),
          newlyFailing: flippedGroups.map((g) => -g.newly_failing),
          newlyPassing: flippedGroups.map((g) => g.newly_passing),
        }
      : null,
  };
}

/**
 * The page's own script: draws the charts from the JSON in #report-data with the inlined Chart.js (animation off,
 * so the charts are complete as soon as the page loads, and in print). Error bars are a small plugin drawing the
 * Wilson intervals over the category bars. Every Chart is kept in `window.evalpCharts`.
 */
export const CHART_SCRIPT = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var charts = (window.evalpCharts = []);
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.font.family = 'system-ui, sans-serif';
  var errorBars = {
    id: 'errorBars',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx, y = chart.scales.y;
      ctx.save();
      ctx.strokeStyle = '#1f2933';
      ctx.lineWidth = 1.5;
      chart.data.datasets.forEach(function (ds, d) {
        if (!ds.intervals || chart.getDatasetMeta(d).hidden) return;
        chart.getDatasetMeta(d).data.forEach(function (bar, i) {
          var e = ds.intervals[i];
          if (!e) return;
          var lo = y.getPixelForValue(e[0]), hi = y.getPixelForValue(e[1]), w = Math.min(6, bar.width / 4 || 4);
          ctx.beginPath();
          ctx.moveTo(bar.x, lo); ctx.lineTo(bar.x, hi);
          ctx.moveTo(bar.x - w, lo); ctx.lineTo(bar.x + w, lo);
          ctx.moveTo(bar.x - w, hi); ctx.lineTo(bar.x + w, hi);
          ctx.stroke();
        });
      });
      ctx.restore();
    },
  };
  function make(id, config) {
    var el = document.getElementById(id);
    if (el) charts.push(new Chart(el, config));
  }
  var colors = ['#9aa5b1', '#2f6fde'];
  make('chart-funnel', {
    type: 'bar',
    data: { labels: data.funnel.labels, datasets: [{ label: 'cases still clean after the stage', data: data.funnel.values, backgroundColor: '#2f6fde' }] },
    options: { plugins: { legend: { display: false }, tooltip: { callbacks: { afterLabel: function (c) { return 'stage ran on ' + data.funnel.ran[c.dataIndex] + ' cases'; } } } }, scales: { y: { beginAtZero: true } } },
  });
  make('chart-categories', {
    type: 'bar',
    data: {
      labels: data.categories.labels,
      datasets: data.categories.series.map(function (s, i) {
        return { label: s.label, data: s.values, intervals: s.intervals, backgroundColor: colors[data.categories.series.length === 1 ? 1 : i] };
      }),
    },
    options: { scales: { y: { min: 0, max: 100, title: { display: true, text: 'pass rate %' } } } },
    plugins: [errorBars],
  });
  make('chart-latency', {
    type: 'bar',
    data: { labels: data.latency.labels, datasets: [{ label: 'cases', data: data.latency.values, backgroundColor: '#3ebd93', categoryPercentage: 1, barPercentage: 0.95 }] },
    options: { plugins: { legend: { display: false } }, scales: { x: { title: { display: true, text: 'target latency (ms)' } }, y: { beginAtZero: true } } },
  });
  if (data.flipped) {
    make('chart-flipped', {
      type: 'bar',
      data: {
        labels: data.flipped.labels,
        datasets: [
          { label: 'newly failing', data: data.flipped.newlyFailing, backgroundColor: '#e12d39' },
          { label: 'newly passing', data: data.flipped.newlyPassing, backgroundColor: '#3ebd93' },
        ],
      },
      options: { indexAxis: 'y', scales: { x: { stacked: true, title: { display: true, text: 'cases' } }, y: { stacked: true } } },
    });
  }
})();`;
