import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as functionSettings from '../../../functions/settings.js';
import { ALERT_NOTIFICATIONS_QUEUE } from '../../alerts/index.js';
import { captureRegistrations } from '../../host/capture.js';
import type { FunctionRegistration } from '../../host/registration.js';
import { STAGE_QUEUE_NAMES } from '../../runs/queues.js';
import { RUN_COMPLETED_QUEUE } from '../../runs/runCompletedEvents.js';
import { packageRoot } from '../packageRoot.js';
import { APP_SETTINGS, APP_SETTING_NAMES } from './appSettings.js';

const root = packageRoot();
const readJson = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8')) as Record<string, unknown>;
const sample = readJson('local.settings.sample.json') as { IsEncrypted: boolean; Values: Record<string, string> };
const hostJson = readJson('host.json') as {
  version: string;
  extensionBundle: { id: string; version: string };
  logging: { logLevel: Record<string, string> };
  extensions: { serviceBus: Record<string, unknown>; durableTask: { hubName: string } };
};

/** `%Name%` app-setting references in a JSON value. */
const placeholders = (value: unknown): string[] => [...JSON.stringify(value).matchAll(/%([A-Za-z0-9_]+)%/g)].map((m) => m[1]!);

let registrations: FunctionRegistration[];
beforeAll(async () => {
  registrations = await captureRegistrations(() => import('../../../functions/index.js'));
});

describe('local.settings.sample.json', () => {
  it('is a Core Tools settings file: IsEncrypted false, string values, the worker runtime and local storage', () => {
    expect(sample.IsEncrypted).toBe(false);
    expect(Object.values(sample.Values).every((v) => typeof v === 'string')).toBe(true);
    expect([sample.Values.FUNCTIONS_WORKER_RUNTIME, sample.Values.AzureWebJobsStorage]).toEqual(['node', 'UseDevelopmentStorage=true']);
  });

  it('lists exactly the settings of the schema, in its order, with its sample values', () => {
    expect(Object.keys(sample.Values)).toEqual(APP_SETTING_NAMES);
    expect(sample.Values).toEqual(Object.fromEntries(APP_SETTING_NAMES.map((name) => [name, APP_SETTINGS[name].sample])));
  });

  it.each(Object.entries(functionSettings).filter(([key]) => key.endsWith('_CONNECTION')))(
    'has identity-based settings for the %s binding connection',
    (_key, connection) => {
      expect(Object.keys(sample.Values).filter((name) => name.startsWith(`${connection}__`)).length).toBeGreaterThan(0);
    },
  );

  it('defines every %setting% the bindings and host.json reference', () => {
    const referenced = [...registrations.flatMap((r) => placeholders(r.metadata.bindings)), ...placeholders(hostJson)];
    expect(referenced.length).toBeGreaterThan(0);
    for (const name of referenced) expect(APP_SETTING_NAMES).toContain(name);
  });
});

describe('host.json', () => {
  it('is a v2 host on extension bundle 4 with the task hub from app settings', () => {
    expect(hostJson.version).toBe('2.0');
    expect(hostJson.extensionBundle).toEqual({ id: 'Microsoft.Azure.Functions.ExtensionBundle', version: '[4.*, 5.0.0)' });
    expect(hostJson.extensions.durableTask.hubName).toBe('%EVALP_TASK_HUB%');
  });

  it('matches the queue triggers: one per stage queue (+ alert notifications, run completed), all on ServiceBusConnection, settled by the host', () => {
    const triggers = registrations.filter((r) => r.kind === 'serviceBusTrigger');
    expect(triggers.map((r) => r.trigger.queueName).sort()).toEqual(
      [...STAGE_QUEUE_NAMES, ALERT_NOTIFICATIONS_QUEUE, RUN_COMPLETED_QUEUE].sort(),
    );
    for (const trigger of triggers) {
      expect(trigger.trigger.connection).toBe(functionSettings.SERVICE_BUS_CONNECTION);
      // the workers settle nothing themselves (a throw abandons the batch), so the host must complete messages
      expect(trigger.trigger.autoCompleteMessages ?? true).toBe(hostJson.extensions.serviceBus.autoCompleteMessages);
    }
    const batch = triggers.filter((r) => r.trigger.cardinality === 'many');
    expect(batch.map((r) => r.trigger.queueName).sort()).toEqual([...STAGE_QUEUE_NAMES].sort());
    expect(hostJson.extensions.serviceBus.maxMessageBatchSize).toBeGreaterThanOrEqual(
      hostJson.extensions.serviceBus.minMessageBatchSize as number,
    );
  });

  it('names only functions that exist in its per-function log levels, and has one for every queue and feed trigger', () => {
    const names = new Set(registrations.map((r) => r.name));
    const levels = Object.keys(hostJson.logging.logLevel).filter((key) => key.startsWith('Function.'));
    for (const key of levels) expect(names).toContain(key.slice('Function.'.length));
    for (const r of registrations.filter((r) => r.kind === 'serviceBusTrigger' || r.kind === 'cosmosDBTrigger'))
      expect(levels).toContain(`Function.${r.name}`);
  });
});

/** Names that look like settings but are read by the CLI or tests only, never by the function app. */
const NOT_APP_SETTINGS = new Set([
  'EVALP_URL',
  'EVALP_API_KEY',
  'EVALP_CONFIG',
  'EVALP_CONNECTION',
  'EVALP_BIN',
  'EVALP_CHROMIUM',
  'EVALP_CLI_INPUT',
  // CLI settings of evalplatform.config.yaml (lib/app/settings/configKeys.ts, reader: cli)
  'EVALP_PROFILE',
  'EVALP_FAIL_UNDER',
  'EVALP_FAIL_ON',
  'EVALP_JUDGE',
  'EVALP_JUDGE_MODEL',
  'EVALP_JUDGE_PASS_THRESHOLD',
]);
const SETTING_NAME =
  /\b(?:EVALP_[A-Z0-9_]*[A-Z0-9]|OPENAI_[A-Z_]*[A-Z]|AZURE_OPENAI_[A-Z_]*[A-Z]|APPLICATIONINSIGHTS_[A-Z_]*[A-Z]|(?:Cosmos|ServiceBus)Connection__[A-Za-z]+)\b/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' || entry.startsWith('__') ? [] : sourceFiles(path);
    return path.endsWith('.ts') && !/\.(test|test-helpers|bench)\.ts$/.test(path) ? [path] : [];
  });
}

describe('settings the code reads', () => {
  it('are all in the schema (a scan of lib/ and functions/ for setting names)', () => {
    const found = new Map<string, string>();
    for (const file of [...sourceFiles(join(root, 'lib')), ...sourceFiles(join(root, 'functions'))]) {
      for (const [name] of readFileSync(file, 'utf8').matchAll(SETTING_NAME)) if (!found.has(name)) found.set(name, relative(root, file));
    }
    expect(found.size).toBeGreaterThan(40);
    const known = new Set<string>(APP_SETTING_NAMES);
    const ignored = (name: string) =>
      NOT_APP_SETTINGS.has(name) || name.startsWith('EVALP_TEST_') || name.endsWith('_') || !/[A-Z]/.test(name.replace(/^[a-z]/, ''));
    const missing = [...found].filter(
      ([name]) => !known.has(name) && !ignored(name) && !name.startsWith('OPENAI_SETTINGS') && name !== 'OPENAI_API_BASE_URL',
    );
    expect(missing).toEqual([]);
  });
});
