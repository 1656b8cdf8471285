// The dashboard's serving logic: built assets, cache and security headers (functions/http/dashboard.ts serves them).
export { dashboardAsset, dashboardConfigFromEnv } from './dashboardAssets.js';
