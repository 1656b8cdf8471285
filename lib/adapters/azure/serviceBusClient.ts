import { DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import { ServiceBusClient } from '@azure/service-bus';

/** The connection name of the queue triggers (functions/settings.ts SERVICE_BUS_CONNECTION; a test keeps them equal). */
export const SERVICE_BUS_CONNECTION_NAME = 'ServiceBusConnection';
const SERVICE_BUS_CONNECTION = SERVICE_BUS_CONNECTION_NAME;

/** App settings of the Service Bus connection (the same names the Functions host reads for its triggers). */
export const SERVICE_BUS_SETTINGS = {
  /** `<namespace>.servicebus.windows.net`: identity-based connection (the default) */
  namespace: `${SERVICE_BUS_CONNECTION}__fullyQualifiedNamespace`,
  /** client id of a user-assigned managed identity (absent: system-assigned, or the developer's login) */
  clientId: `${SERVICE_BUS_CONNECTION}__clientId`,
  /** `managedidentity` for the Functions host; ignored here (DefaultAzureCredential covers it) */
  credential: `${SERVICE_BUS_CONNECTION}__credential`,
  /** the explicit fallback: a connection string with a SAS key (not used by infra/) */
  connectionString: SERVICE_BUS_CONNECTION,
} as const;

export type ServiceBusSettings = Readonly<Record<string, string | undefined>>;

export class ServiceBusConfigurationError extends Error {
  override readonly name = 'ServiceBusConfigurationError';
}

/**
 * The Service Bus client from app settings: Microsoft Entra ID (`credential`, default DefaultAzureCredential with
 * the user-assigned identity's client id when set) against `ServiceBusConnection__fullyQualifiedNamespace`;
 * a `ServiceBusConnection` connection string only when no namespace is set (explicit fallback).
 */
export function createServiceBusClient(settings: ServiceBusSettings, credential?: TokenCredential): ServiceBusClient {
  const namespace = settings[SERVICE_BUS_SETTINGS.namespace]?.trim();
  if (namespace) {
    const clientId = settings[SERVICE_BUS_SETTINGS.clientId]?.trim();
    return new ServiceBusClient(namespace, credential ?? new DefaultAzureCredential(clientId ? { managedIdentityClientId: clientId } : {}));
  }
  const connectionString = settings[SERVICE_BUS_SETTINGS.connectionString]?.trim();
  if (connectionString) return new ServiceBusClient(connectionString);
  throw new ServiceBusConfigurationError(
    `Service Bus is not configured: set ${SERVICE_BUS_SETTINGS.namespace} (<namespace>.servicebus.windows.net, identity-based) or, as a fallback, ${SERVICE_BUS_SETTINGS.connectionString} (a connection string)`,
  );
}
