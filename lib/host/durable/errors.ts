export const DURABLE_HUB_ERROR_CODES = [
  'OrchestratorNotFound',
  'InstanceExists',
  'InvalidInstanceId',
  'InvalidEventName',
  'InvalidInput',
] as const;
export type DurableHubErrorCode = (typeof DURABLE_HUB_ERROR_CODES)[number];

/** A request the task hub refuses (bad name, id or input, or an instance that already runs). */
export class DurableHubError extends Error {
  readonly code: DurableHubErrorCode;

  constructor(code: DurableHubErrorCode, message: string) {
    super(message);
    this.name = 'DurableHubError';
    this.code = code;
  }
}

/** Azure's rule for instance ids: 1-256 characters, none of / \ # ? or control characters. */
export function validateInstanceId(instanceId: string): void {
  // eslint-disable-next-line no-control-regex
  if (instanceId.length === 0 || instanceId.length > 256 || /[/\\#?\u0000-\u001f\u007f]/.test(instanceId)) {
    throw new DurableHubError(
      'InvalidInstanceId',
      `Invalid instance id '${instanceId}': use 1-256 characters without '/', '\\', '#', '?' or control characters.`,
    );
  }
}
