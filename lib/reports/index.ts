export { buildRunReport, DEFAULT_MAX_LISTED, type ReportDeps, type RunReportOptions } from './buildRunReport.js';
export { renderReport, REPORT_FORMATS, REPORT_MEDIA, ReportFormatSchema, type ReportFormat } from './renderReport.js';
export { renderMarkdown, DEFAULT_MARKDOWN_MAX_CHARS, type MarkdownOptions } from './renderMarkdown.js';
export { renderHtml, HTML_CONTENT_SECURITY_POLICY } from './renderHtml.js';
export { renderJunit } from './renderJunit.js';
export { describeFailure, diffLines, type FailureDescription } from './failureDiff.js';
export { escapeHtml, escapeMarkdown, escapeXmlAttribute, escapeXmlText, jsonForScript } from './escape.js';
export { REPORT_MARKER, RunReportSchema, ReportCaseSchema, type ReportCase, type ReportCaseList, type RunReport } from './reportModel.js';
export { SampleBreakdownBuilder, SampleBreakdownSchema, sampleSentence, type SampleBreakdown } from './sampleBreakdown.js';
export { ANALYTICS_COLUMNS, ANALYTICS_SCHEMA_VERSION, analyticsParquetSchema, type AnalyticsColumn } from './analyticsSchema.js';
export {
  AnalyticsExportUnavailableError,
  ANALYTICS_ROW_GROUP,
  analyticsFileName,
  exportRunAnalytics,
  writeAnalyticsParquet,
  type AnalyticsExport,
} from './analyticsParquet.js';
export { publishRunAnalytics, type AnalyticsPublishResult } from './analyticsPublish.js';
