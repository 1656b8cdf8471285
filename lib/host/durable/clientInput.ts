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

/** The query every webhook URL carries: task hub, connection and, when the webhooks are key-protected, `code`. */
function hubQuery(taskHubName: string, code: string | undefined): string {
  const hub = `taskHub=${encodeURIComponent(taskHubName)}&connection=${CONNECTION}`;
  return code === undefined ? hub : `${hub}&code=${encodeURIComponent(code)}`;
}

/**
 * The extension's management URLs for one instance id placeholder (or a real id). With `code` (the host's
 * durable-task system key) every URL carries `code=<key>`, as the Azure runtime hands them out.
 */
export function managementUrls(baseUrl: string, taskHubName: string, id: string, code?: string): Record<string, string> {
  const base = durableWebhookBase(baseUrl);
  const hub = hubQuery(taskHubName, code);
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

/** The user name of the credentials in a key-carrying `rpcBaseUrl` (the password is the durable-task system key). */
export const RPC_USER = 'durabletask';

/**
 * The value the host puts into `context.extraInputs` for a `durableClient` input binding (what the extension
 * supplies): `df.getClient(context)` then talks to this host's durable HTTP API through `rpcBaseUrl`.
 * `baseUrl` may be the host origin (http://127.0.0.1:7071) or already end in /runtime/webhooks/durabletask.
 *
 * With `code` (the host's durable-task system key; the embedded host always passes it) the creation and management
 * URLs carry `code=<key>` as the Azure runtime's webhook URLs do, and `rpcBaseUrl` carries the key as URL
 * credentials (`http://durabletask:<key>@host/...`): Azure's rpcBaseUrl is a separate local-only channel, while here
 * the same key-protected listener serves it, and the client (axios) turns URL credentials into an
 * `Authorization: Basic` header, which the webhooks accept.
 */
export function durableClientInput(baseUrl: string, taskHubName: string, code?: string): object {
  const base = durableWebhookBase(baseUrl);
  const query = hubQuery(taskHubName, code);
  const rpc = new URL(base);
  if (code !== undefined) {
    rpc.username = RPC_USER;
    rpc.password = code;
  }
  return {
    taskHubName,
    creationUrls: {
      createNewInstancePostUri: `${base}orchestrators/{functionName}[/{instanceId}]${code === undefined ? '' : `?${query}`}`,
      waitOnNewInstancePostUri: `${base}orchestrators/{functionName}[/{instanceId}]?timeout={timeoutInSeconds}&pollingInterval={intervalInSeconds}${code === undefined ? '' : `&${query}`}`,
    },
    managementUrls: managementUrls(baseUrl, taskHubName, 'INSTANCEID', code),
    baseUrl: base.slice(0, -1),
    requiredQueryStringParameters: query,
    rpcBaseUrl: rpc.href,
    httpBaseUrl: base,
  };
}
