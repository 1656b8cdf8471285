import { ClientSecretCredential } from '@azure/identity';
import { describe, expect, it } from 'vitest';
import { SERVICE_BUS_CONNECTION } from '../../../functions/settings.js';
import {
  createServiceBusClient,
  SERVICE_BUS_CONNECTION_NAME,
  SERVICE_BUS_SETTINGS,
  ServiceBusConfigurationError,
} from './serviceBusClient.js';

describe('createServiceBusClient', () => {
  it('uses the connection name of the queue triggers', () => {
    expect(SERVICE_BUS_CONNECTION_NAME).toBe(SERVICE_BUS_CONNECTION);
    expect(SERVICE_BUS_SETTINGS.namespace).toBe('ServiceBusConnection__fullyQualifiedNamespace');
  });

  it('connects to the namespace with Entra ID (no key) when the identity-based setting is present', async () => {
    const credential = new ClientSecretCredential('00000000-0000-0000-0000-000000000000', 'client', 'secret');
    const client = createServiceBusClient(
      { ServiceBusConnection__fullyQualifiedNamespace: 'evalp.servicebus.windows.net', ServiceBusConnection: 'Endpoint=sb://ignored/' },
      credential,
    );
    expect(client.fullyQualifiedNamespace).toBe('evalp.servicebus.windows.net');
    await client.close();
  });

  it('builds a DefaultAzureCredential with the user-assigned client id when none is passed', async () => {
    const client = createServiceBusClient({
      ServiceBusConnection__fullyQualifiedNamespace: 'evalp.servicebus.windows.net',
      ServiceBusConnection__clientId: 'abc',
    });
    expect(client.fullyQualifiedNamespace).toBe('evalp.servicebus.windows.net');
    await client.close();
  });

  it('falls back to a connection string only when no namespace is set', async () => {
    const client = createServiceBusClient({
      ServiceBusConnection: 'Endpoint=sb://dev.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=c2VjcmV0',
    });
    expect(client.fullyQualifiedNamespace).toBe('dev.servicebus.windows.net');
    await client.close();
  });

  it('names both settings when neither is set', () => {
    expect(() => createServiceBusClient({})).toThrow(ServiceBusConfigurationError);
    expect(() => createServiceBusClient({})).toThrow(
      /ServiceBusConnection__fullyQualifiedNamespace .* ServiceBusConnection \(a connection string\)/,
    );
  });
});
