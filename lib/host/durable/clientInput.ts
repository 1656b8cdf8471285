/** Path under which the host serves the durable client's HTTP API (the extension's webhook path). */
export const DURABLE_WEBHOOK_PATH = '/runtime/webhooks/durabletask';

/** The connection name the extension puts into its management URLs (not used by the embedded host). */
const CONNECTION = 'Storage';

/** The webhook base URL with a trailing slash, from a host origin or from a URL that already has the path. */
export function durableWebhookBase(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  const withPath = trimmed.endsWith(DURABLE_WEBHOOK_PATH) ? trimmed : `${trimmed}${DURABLE_WEBHOOK_PATH}`;
  return `${withPath}/`;
}

/** The extension's management URLs for one instance id placeholder (or a real id). */
export function managementUrls(baseUrl: string, taskHubName: string, id: string): Record<string, string> {
  const base = durableWebhookBase(baseUrl);
  const hub = `taskHub=${encodeURIComponent(taskHubName)}&connection=${CONNECTION}`;
  const instance = `${base}instances/${id}`;
  return {
    id,
    statusQueryGetUri: `${instance}?${hub}`,
    sendEventPostUri: `${instance}/raiseEvent/{eventName}?${hub}`,
    terminatePostUri: `${instance}/terminate?reason={text}&${hub}`,
    rewindPostUri: `${instance}/rewind?reason={text}&${hub}`,
    purgeHistoryDeleteUri: `${instance}?${hub}`,
    restartPostUri: `${instance}/restart?${hub}`,
    suspendPostUri: `${instance}/suspend?reason={text}&${hub}`,
    resumePostUri: `${instance}/resume?reason={text}&${hub}`,
  };
}

/**
 * The value the host puts into `context.extraInputs` for a `durableClient` input binding (what the extension
 * supplies): `df.getClient(context)` then talks to this host's durable HTTP API through `rpcBaseUrl`.
 * `baseUrl` may be the host origin (http://127.0.0.1:7071) or already end in /runtime/webhooks/durabletask.
 */
export function durableClientInput(baseUrl: string, taskHubName: string): object {
  const base = durableWebhookBase(baseUrl);
  return {
    taskHubName,
    creationUrls: {
      createNewInstancePostUri: `${base}orchestrators/{functionName}[/{instanceId}]`,
      waitOnNewInstancePostUri: `${base}orchestrators/{functionName}[/{instanceId}]?timeout={timeoutInSeconds}&pollingInterval={intervalInSeconds}`,
    },
    managementUrls: managementUrls(baseUrl, taskHubName, 'INSTANCEID'),
    baseUrl: base.slice(0, -1),
    requiredQueryStringParameters: `taskHub=${encodeURIComponent(taskHubName)}&connection=${CONNECTION}`,
    rpcBaseUrl: base,
    httpBaseUrl: base,
  };
}
