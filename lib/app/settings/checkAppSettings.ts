import { z } from 'zod';
import { ApiSecurityEnvSchema } from '../../api/index.js';
import { APP_SETTINGS, type AppSettingName } from './appSettings.js';

export type SettingsSource = Readonly<Record<string, string | undefined>>;

export interface SettingProblem {
  setting: string;
  message: string;
}

/** The settings are missing or malformed: `problems` names each one (values are never echoed: some are secrets). */
export class AppSettingsError extends Error {
  override readonly name = 'AppSettingsError';
  constructor(readonly problems: readonly SettingProblem[]) {
    super(`invalid app settings (${problems.length}):\n${problems.map((p) => `  - ${p.setting}: ${p.message}`).join('\n')}`);
  }
}

const shape = Object.fromEntries(Object.entries(APP_SETTINGS).map(([name, spec]) => [name, spec.schema])) as {
  [K in AppSettingName]: (typeof APP_SETTINGS)[K]['schema'];
};

/** Every app setting, parsed (blank values are unset; numbers coerced; other keys of the environment ignored). */
export const AppSettingsSchema = z.object(shape);
export type AppSettings = z.infer<typeof AppSettingsSchema>;

const isSet = (env: SettingsSource, name: AppSettingName): boolean => (env[name]?.trim() ?? '') !== '';

/** Settings the Azure backend cannot start without: one of each group must be set. */
const AZURE_REQUIRED: ReadonlyArray<readonly AppSettingName[]> = [
  ['COSMOS_DATABASE_NAME'],
  ['CosmosConnection__accountEndpoint'],
  ['ServiceBusConnection__fullyQualifiedNamespace', 'ServiceBusConnection'],
  ['AzureWebJobsStorage', 'AzureWebJobsStorage__accountName'],
  ['EVALP_TASK_HUB'],
];

/** Settings that need others: when the key is set, each of the values must be too. */
const NEEDS: ReadonlyArray<[AppSettingName, readonly AppSettingName[]]> = [
  ['EVALP_SEARCH_ENDPOINT', ['AZURE_OPENAI_ENDPOINT', 'AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT', 'AZURE_OPENAI_API_VERSION']],
];

/**
 * The startup check: parses every setting and, for the Azure backend (EVALP_BACKEND=azure, or `backend`), checks
 * that what it needs is there. Throws AppSettingsError naming every missing or malformed setting at once.
 */
export function checkAppSettings(env: SettingsSource, options: { backend?: 'embedded' | 'azure' } = {}): AppSettings {
  const problems: SettingProblem[] = [];
  const parsed = AppSettingsSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      problems.push({ setting: String(issue.path[0] ?? '?'), message: `malformed: ${issue.message}` });
  }
  const security = ApiSecurityEnvSchema.safeParse(env);
  if (!security.success) {
    for (const issue of security.error.issues) {
      const setting = String(issue.path[0] ?? '?');
      if (!problems.some((p) => p.setting === setting)) problems.push({ setting, message: issue.message });
    }
  }
  const backend = options.backend ?? (env.EVALP_BACKEND?.trim() === 'azure' ? 'azure' : 'embedded');
  if (backend === 'azure') {
    for (const group of AZURE_REQUIRED) {
      if (group.some((name) => isSet(env, name))) continue;
      const [first, ...others] = group;
      problems.push({
        setting: first!,
        message: `required when EVALP_BACKEND=azure${others.length ? ` (or ${others.join(', ')})` : ''}: ${APP_SETTINGS[first!].description}`,
      });
    }
    for (const [key, needed] of NEEDS) {
      if (!isSet(env, key)) continue;
      for (const name of needed)
        if (!isSet(env, name)) problems.push({ setting: name, message: `required when ${key} is set: ${APP_SETTINGS[name].description}` });
    }
  }
  if (problems.length > 0 || !parsed.success) throw new AppSettingsError(problems);
  return parsed.data;
}
