/**
 * Broken target configuration: a missing setting or secret, an unreadable outputs file, a bad request template.
 * Thrown, never returned: the run's setup is wrong, not the target's answer. `setting` names what to fix
 * (`settings.api_key`, `settings.outputs_path`, ...).
 */
export class TargetConfigurationError extends Error {
  override readonly name = 'TargetConfigurationError';
  constructor(
    readonly setting: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A short description of a thrown value; fetch's "fetch failed" gets its cause (ECONNREFUSED, ...). */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  if (cause instanceof Error && cause.message && !error.message.includes(cause.message)) {
    const code = (cause as { code?: unknown }).code;
    return `${error.message} (${typeof code === 'string' ? `${code}: ` : ''}${cause.message})`;
  }
  return error.message;
}

const SNIPPET_CHARS = 200;

/** A one-line excerpt of a response body for error messages. */
export function snippet(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return '(empty body)';
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
