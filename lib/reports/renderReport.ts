import { z } from 'zod';
import { buildRunReport, type ReportDeps, type RunReportOptions } from './buildRunReport.js';
import { renderHtml } from './renderHtml.js';
import { renderJunit } from './renderJunit.js';
import { renderMarkdown } from './renderMarkdown.js';
import type { RunReport } from './reportModel.js';

export const REPORT_FORMATS = ['json', 'markdown', 'html', 'junit'] as const;
export const ReportFormatSchema = z.enum(REPORT_FORMATS);
export type ReportFormat = z.infer<typeof ReportFormatSchema>;

/** Media type and file extension of each format. */
export const REPORT_MEDIA = {
  json: { contentType: 'application/json; charset=utf-8', extension: 'json' },
  markdown: { contentType: 'text/markdown; charset=utf-8', extension: 'md' },
  html: { contentType: 'text/html; charset=utf-8', extension: 'html' },
  junit: { contentType: 'application/xml; charset=utf-8', extension: 'xml' },
} as const satisfies Record<ReportFormat, { contentType: string; extension: string }>;

/** The formats drawn from the view model (JUnit lists every case and streams the scorecards itself). */
const FROM_MODEL = {
  json: (report: RunReport) => `${JSON.stringify(report, null, 2)}\n`,
  markdown: (report: RunReport) => renderMarkdown(report),
  html: (report: RunReport) => renderHtml(report),
} as const satisfies Record<Exclude<ReportFormat, 'junit'>, (report: RunReport) => string>;

/**
 * A run's report in one format, as parts to send or write in order. JUnit ignores `compareWith` (it lists this
 * run's cases); the others include the comparison when it is given.
 */
export async function renderReport(
  format: ReportFormat,
  runId: string,
  deps: ReportDeps,
  options: RunReportOptions = {},
): Promise<string[]> {
  if (format === 'junit') return renderJunit(runId, deps);
  return [FROM_MODEL[format](await buildRunReport(runId, deps, options))];
}
