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
