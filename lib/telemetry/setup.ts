import { context, metrics, propagation, trace, type Meter, type Tracer } from '@opentelemetry/api';
import type { MetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { createInstruments } from './instruments.js';
import { telemetryState } from './state.js';

/** Settings telemetry reads (app settings in Azure, environment variables on the embedded host). */
export const TELEMETRY_SETTINGS = [
  'APPLICATIONINSIGHTS_CONNECTION_STRING',
  'APPLICATIONINSIGHTS_AUTHENTICATION_STRING',
  'EVALP_OTEL',
  'EVALP_OTEL_SAMPLING_RATIO',
] as const;
/** Any settings source (process.env, the app settings); only TELEMETRY_SETTINGS are read. */
export type TelemetrySettings = Readonly<Record<string, string | undefined>>;

/** off: nothing recorded; console: spans printed; azure-monitor: Application Insights; custom: the caller's processors. */
export type TelemetryMode = 'off' | 'console' | 'azure-monitor' | 'custom';

export interface StartTelemetryOptions {
  /** spans also (custom mode: only) go to these processors; tests pass an in-memory exporter */
  spanProcessors?: SpanProcessor[];
  /** metrics go to these readers (custom mode); tests pass an in-memory reader */
  metricReaders?: MetricReader[];
}

export interface TelemetryHandle {
  readonly mode: TelemetryMode;
  forceFlush(): Promise<void>;
  /** Flushes, then unregisters every global (tracer, meter, context manager, propagator): telemetry is off again. */
  shutdown(): Promise<void>;
}

const INSTRUMENTATION_SCOPE = 'evalplatform';
const OFF: TelemetryHandle = { mode: 'off', forceFlush: async () => {}, shutdown: async () => {} };
let active: TelemetryHandle | undefined;

/** Which mode the settings ask for: Application Insights when its connection string is set, else EVALP_OTEL. */
export function telemetryMode(settings: TelemetrySettings, options: StartTelemetryOptions = {}): TelemetryMode {
  if (settings.APPLICATIONINSIGHTS_CONNECTION_STRING?.trim()) return 'azure-monitor';
  const otel = settings.EVALP_OTEL?.trim().toLowerCase();
  if (otel === 'console') return 'console';
  if (otel && otel !== 'off') throw new RangeError(`EVALP_OTEL must be "console" or "off", got ${JSON.stringify(settings.EVALP_OTEL)}`);
  return options.spanProcessors?.length || options.metricReaders?.length ? 'custom' : 'off';
}

/**
 * Starts telemetry for this process, once: later calls return the running handle (so an embedded platform started
 * inside a test that installed its own exporter keeps that exporter). Off unless configured, and then the hot
 * paths pay one property read. Modules are loaded only for the mode chosen.
 */
export async function startTelemetry(settings: TelemetrySettings, options: StartTelemetryOptions = {}): Promise<TelemetryHandle> {
  if (active) return active;
  const mode = telemetryMode(settings, options);
  if (mode === 'off') return OFF;
  const stop = mode === 'azure-monitor' ? await startAzureMonitor(settings, options) : await startLocal(mode, options);
  activate(
    trace.getTracer(INSTRUMENTATION_SCOPE),
    metrics.getMeter(INSTRUMENTATION_SCOPE),
    mode !== 'console' || Boolean(options.metricReaders?.length),
  );
  const handle: TelemetryHandle = {
    mode,
    forceFlush: stop.flush,
    shutdown: async () => {
      if (active !== handle) return;
      try {
        await stop.shutdown();
      } finally {
        telemetryState.tracer = undefined;
        telemetryState.instruments = undefined;
        trace.disable();
        metrics.disable();
        context.disable();
        propagation.disable();
        active = undefined;
      }
    },
  };
  active = handle;
  return handle;
}

/** The running telemetry, if any. */
export function activeTelemetry(): TelemetryHandle | undefined {
  return active;
}

function activate(tracer: Tracer, meter: Meter, withMetrics: boolean): void {
  telemetryState.tracer = tracer;
  telemetryState.instruments = withMetrics ? createInstruments(meter) : undefined;
}

interface Stopper {
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

async function startLocal(mode: 'console' | 'custom', options: StartTelemetryOptions): Promise<Stopper> {
  const { NodeTracerProvider, SimpleSpanProcessor, ConsoleSpanExporter } = await import('@opentelemetry/sdk-trace-node');
  const spanProcessors = [...(options.spanProcessors ?? [])];
  if (mode === 'console') spanProcessors.push(new SimpleSpanProcessor(new ConsoleSpanExporter()));
  const tracerProvider = new NodeTracerProvider({ spanProcessors });
  tracerProvider.register();
  let meterProvider: { forceFlush(): Promise<void>; shutdown(): Promise<void> } | undefined;
  if (options.metricReaders?.length) {
    const { MeterProvider } = await import('@opentelemetry/sdk-metrics');
    const provider = new MeterProvider({ readers: options.metricReaders });
    metrics.setGlobalMeterProvider(provider);
    meterProvider = provider;
  }
  return {
    flush: async () => {
      await tracerProvider.forceFlush();
      await meterProvider?.forceFlush();
    },
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider?.shutdown();
    },
  };
}

async function startAzureMonitor(settings: TelemetrySettings, options: StartTelemetryOptions): Promise<Stopper> {
  const { useAzureMonitor, shutdownAzureMonitor, flushAzureMonitor } = await import('applicationinsights');
  const credential = await ingestionCredential(settings.APPLICATIONINSIGHTS_AUTHENTICATION_STRING);
  useAzureMonitor({
    azureMonitorExporterOptions: {
      connectionString: settings.APPLICATIONINSIGHTS_CONNECTION_STRING!.trim(),
      ...(credential ? { credential } : {}),
    },
    // one run is one trace: ratio sampling (by trace id) keeps or drops whole runs; the rate limiter (the
    // distro's default, 5 traces/s) would cut a run's 400,000 cases into a partial trace
    tracesPerSecond: 0,
    samplingRatio: samplingRatio(settings.EVALP_OTEL_SAMPLING_RATIO),
    enableLiveMetrics: false,
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    ...(options.metricReaders ? { metricReaders: options.metricReaders } : {}),
  });
  return { flush: flushAzureMonitor, shutdown: shutdownAzureMonitor };
}

/** EVALP_OTEL_SAMPLING_RATIO: 0..1, default 1 (every run traced). */
export function samplingRatio(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return 1;
  const ratio = Number(text);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new RangeError(`EVALP_OTEL_SAMPLING_RATIO must be a number from 0 to 1, got ${JSON.stringify(text)}`);
  return ratio;
}

/**
 * Entra ID ingestion (local auth disabled on the Application Insights resource):
 * APPLICATIONINSIGHTS_AUTHENTICATION_STRING = `Authorization=AAD` (system-assigned identity) or
 * `Authorization=AAD;ClientId=<client id>` (user-assigned), the format the Functions host reads too.
 */
export async function ingestionCredential(authentication: string | undefined) {
  if (!authentication?.trim()) return undefined;
  const fields = new Map(
    authentication
      .split(';')
      .filter(Boolean)
      .map((pair) => {
        const at = pair.indexOf('=');
        return [pair.slice(0, at).trim().toLowerCase(), pair.slice(at + 1).trim()] as const;
      }),
  );
  if (fields.get('authorization')?.toLowerCase() !== 'aad') {
    throw new RangeError('APPLICATIONINSIGHTS_AUTHENTICATION_STRING must be "Authorization=AAD" or "Authorization=AAD;ClientId=<id>"');
  }
  const { ManagedIdentityCredential } = await import('@azure/identity');
  const clientId = fields.get('clientid');
  return clientId ? new ManagedIdentityCredential({ clientId }) : new ManagedIdentityCredential();
}
