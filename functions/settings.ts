/**
 * Binding settings shared by the function registrations. In Azure, `connection` names app-setting prefixes
 * (identity-based: `<CONN>__fullyQualifiedNamespace`, `<CONN>__accountEndpoint`); the embedded host ignores them.
 */
export const SERVICE_BUS_CONNECTION = 'ServiceBusConnection';
export const COSMOS_CONNECTION = 'CosmosConnection';
export const DATABASE_NAME = '%COSMOS_DATABASE_NAME%';
export const SCORECARDS_CONTAINER = 'scorecards';
export const LEASES_CONTAINER = 'leases';
