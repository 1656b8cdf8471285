// The public surface of lib/app: other folders import it from here.
export { getServices } from './services.js';
export { createApiProvider } from './createApiProvider.js';
export { packageRoot, platformVersion } from './packageRoot.js';
export { DEMO_SUITE_ID, DEMO_TARGETS, demoRunConfig, loadRetailSample } from './demo.js';
export { provideServices, resetServices } from './services.js';
export { runServices } from './perRunServices.js';
export { hostJsonRoutePrefix } from './hostJsonRoutePrefix.js';
export { liveServer, removeServerMarker, writeServerMarker } from './serverMarker.js';
export { breakerSettingsFromEnv } from './breakerSettings.js';
export { HOUSEKEEPING_SCHEDULE, housekeepingSettingsFromEnv, runHousekeeping, type HousekeepingSettings } from './housekeeping.js';
export { CONFIG_FILE_NAME, ConfigFileError, findConfigFile, loadConfigFile } from './settings/configFile.js';
export type { ConfigFileLocation, LoadedConfigFile } from './settings/configFile.js';
export { ConfigFileSchema, type ConfigFile } from './settings/configFileSchema.js';
export { CONFIG_KEYS, type ConfigKey } from './settings/configKeys.js';
export {
  ConfigValueError,
  effectiveValue,
  maskSecret,
  platformEnvFromFile,
  resolveEffectiveConfig,
  type ConfigValue,
  type EffectiveValue,
} from './settings/effectiveConfig.js';
export { mailerFromEnv } from './mailerFromEnv.js';
