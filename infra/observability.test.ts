import { describe, expect, it } from 'vitest';
import { RUN_STATUSES, RunSchema } from '../lib/domain/index.js';
import { ATTRIBUTES, METRICS, SPANS } from '../lib/telemetry/names.js';
import {
  bicepFiles,
  declarationsOf,
  readText,
  resourceTypeOf,
  stringValue,
  textOf,
  valueAt,
  type BicepFile,
} from './infraFiles.test-helpers.js';

// The portal's monitoring (infra/modules/observability.bicep + infra/workbook.json) reads the names the code emits:
// a renamed metric, span or attribute, or a status that no longer exists, must fail here rather than leave an empty
// chart or a silent alert in Azure.

interface WorkbookItem {
  type: number;
  name: string;
  content: { query?: string; title?: string; metrics?: Array<{ metric: string }>; parameters?: Array<{ name: string; value: unknown }> };
}
const workbookText = readText('workbook.json');
const workbook = JSON.parse(workbookText) as { version: string; items: WorkbookItem[]; fallbackResourceIds: string[] };
const files = bicepFiles();
const file = (path: string): BicepFile => files.find((f) => f.path === path) ?? expect.fail(`infra/${path} is missing`);
const observability = file('modules/observability.bicep');
const resource = (symbol: string) => declarationsOf(observability, 'resource').find((d) => d.name === symbol)?.value;
const queryOf = (symbol: string): string =>
  stringValue(valueAt(resource(symbol), 'properties.criteria.allOf')) ??
  /query: '([^']+)'/.exec(textOf(valueAt(resource(symbol), 'properties.criteria')))?.[1] ??
  '';

const KNOWN_NAMES = new Set<string>([
  ...Object.values(METRICS),
  ...Object.values(ATTRIBUTES),
  SPANS.run,
  SPANS.invokeTarget,
  SPANS.writeScorecard,
  ...Object.values(SPANS.stage),
  'eval.stage.',
]);
/** every `eval.*` or `gen_ai.*` name a query mentions */
const namesIn = (text: string): string[] => [...text.matchAll(/"((?:eval|gen_ai)\.[a-z_.]*)"/g)].map((m) => m[1]!);

describe('infra: the workbook', () => {
  it('is a workbook with a panel for each thing the portal must show', () => {
    expect(workbook.version).toBe('Notebook/1.0');
    const titles = workbook.items.map((i) => i.content.title ?? i.name);
    for (const expected of [
      'Runs started and completed',
      'Cases per second (stage workers)',
      'Stage pass rates',
      'Dead-lettered messages per queue',
      'Target errors',
      'Judge tokens and cost',
      'Runs that failed or timed out',
    ]) {
      expect(titles).toContain(expected);
    }
  });

  it('queries only names the code emits (lib/telemetry/names.ts) and statuses runs can have', () => {
    const queries = workbook.items.flatMap((i) => (i.content.query ? [i.content.query] : []));
    expect(queries.length).toBeGreaterThanOrEqual(7);
    const names = queries.flatMap(namesIn);
    expect(names).toEqual(
      expect.arrayContaining([METRICS.runsStarted, METRICS.runsFinished, METRICS.tasksProcessed, METRICS.llmTokens, SPANS.invokeTarget]),
    );
    expect(names.filter((n) => !KNOWN_NAMES.has(n))).toEqual([]);
    for (const q of queries)
      for (const status of q.matchAll(/in \("(failed)", "(timed_out)"\)/g))
        expect(RUN_STATUSES).toEqual(expect.arrayContaining([status[1], status[2]]));
    // each panel runs against the time range parameter it declares
    expect(workbookText).toContain('"name": "TimeRange"');
  });

  it('gets the App Insights and Service Bus ids from the Bicep (no placeholder survives the deployment)', () => {
    expect(workbook.fallbackResourceIds).toEqual(['__APP_INSIGHTS_ID__']);
    expect(workbookText).toContain('__SERVICE_BUS_NAMESPACE_ID__');
    const text = observability.text;
    expect(text).toContain("loadTextContent('../workbook.json')");
    expect(text).toContain("'__APP_INSIGHTS_ID__', appInsightsId");
    expect(text).toContain("'__SERVICE_BUS_NAMESPACE_ID__', serviceBusNamespaceId");
    expect(resourceTypeOf(observability, 'workbook')).toBe('Microsoft.Insights/workbooks');
    expect(textOf(valueAt(resource('workbook'), 'properties.serializedData'))).toBe('workbookText');
  });
});

describe('infra: the alert rules', () => {
  it('alerts on dead letters from the Service Bus namespace metric, above a threshold parameter', () => {
    expect(resourceTypeOf(observability, 'deadLetterAlert')).toBe('Microsoft.Insights/metricAlerts');
    const criteria = textOf(valueAt(resource('deadLetterAlert'), 'properties.criteria'));
    expect(criteria).toContain("metricName: 'DeadletteredMessages'");
    expect(criteria).toContain('threshold: deadLetterThreshold');
    expect(textOf(valueAt(resource('deadLetterAlert'), 'properties.scopes'))).toContain('serviceBusNamespaceId');
  });

  it('alerts on a failed or timed-out run and on a missing nightly run, from the metrics the orchestrator records', () => {
    for (const symbol of ['failedRunAlert', 'missedNightlyAlert']) {
      expect(resourceTypeOf(observability, symbol)).toBe('Microsoft.Insights/scheduledQueryRules');
      expect(textOf(valueAt(resource(symbol), 'properties.scopes'))).toContain('appInsightsId');
    }
    const failed = queryOf('failedRunAlert');
    const nightly = queryOf('missedNightlyAlert');
    expect(namesIn(failed)).toEqual([METRICS.runsFinished, ATTRIBUTES.status]);
    expect(failed).toContain('in ("failed", "timed_out")');
    expect(namesIn(nightly)).toEqual([METRICS.runsFinished, ATTRIBUTES.trigger, ATTRIBUTES.status]);
    expect(nightly).toContain('== "schedule"');
    // the trigger and status the queries compare against are values the code writes
    expect(RunSchema.shape.triggered_by.options).toContain('schedule');
    expect(RUN_STATUSES).toEqual(expect.arrayContaining(['completed', 'failed', 'timed_out']));
    expect(textOf(valueAt(resource('missedNightlyAlert'), 'properties.windowSize'))).toContain('nightlyWindowHours');
  });

  it('is deployed by app.bicep with the monitoring and Service Bus resources it watches', () => {
    const app = file('app.bicep');
    const module = declarationsOf(app, 'module').find((d) => d.name === 'observability');
    expect(module?.type).toBe('modules/observability.bicep');
    const params = textOf(valueAt(module?.value, 'params'));
    expect(params).toContain('appInsightsId: monitoring.outputs.id');
    expect(params).toContain('serviceBusNamespaceId: serviceBus.outputs.id');
  });
});
