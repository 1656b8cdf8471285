import { MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { startTelemetry, type TelemetryHandle } from './setup.js';

/** A pull reader for tests: `collect()` returns what the instruments recorded so far. */
class TestMetricReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface TestTelemetry {
  handle: TelemetryHandle;
  spans(): ReadableSpan[];
  /** data points of one metric (all attribute sets), collected now */
  points(metricName: string): Promise<Array<DataPoint<unknown>>>;
  shutdown(): Promise<void>;
}

/** Starts telemetry in 'custom' mode with an in-memory span exporter and a pull metric reader. */
export async function startTestTelemetry(): Promise<TestTelemetry> {
  const exporter = new InMemorySpanExporter();
  const reader = new TestMetricReader();
  const handle = await startTelemetry({}, { spanProcessors: [new SimpleSpanProcessor(exporter)], metricReaders: [reader] });
  if (handle.mode !== 'custom') throw new Error(`telemetry was already running in mode ${handle.mode}`);
  return {
    handle,
    spans: () => exporter.getFinishedSpans(),
    points: async (metricName) => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics
        .flatMap((s) => s.metrics)
        .filter((m) => m.descriptor.name === metricName)
        .flatMap((m) => m.dataPoints as Array<DataPoint<unknown>>);
    },
    shutdown: () => handle.shutdown(),
  };
}
