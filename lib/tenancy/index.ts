export { Ownership } from './ownership.js';
export { isPlatformOperator, organizationOfPrincipal, scopedServices, scopedStores, unscopedServicesOf } from './scopedServices.js';
export { runIdOfMessage } from './scopedPlatformPorts.js';
export { ScopedTestCaseStore } from './scopedTestCaseStore.js';
export { ensureDefaultOrganization } from './organizations.js';
