/**
 * Broken stage-3 configuration: a tool without an HTTP mapping, a missing base URL or cassette, a cassette file
 * with a bad line. Thrown (never returned as a StageResult): the run's setup is wrong, not the target's output.
 */
export class ExecutionConfigurationError extends Error {
  override readonly name = 'ExecutionConfigurationError';
}
