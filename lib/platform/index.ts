// The embedded platform: the host serving functions/ with embedded services (npm start, and every end-to-end test).
export { startEmbeddedPlatform, type EmbeddedPlatform, type EmbeddedPlatformOptions } from './embedded.js';
export {
  launchNodeProcess,
  launchTsProcess,
  startPlatformProcess,
  type LaunchedProcess,
  type LaunchOptions,
  type PlatformProcess,
  type StartPlatformOptions,
} from './platformProcess.js';
