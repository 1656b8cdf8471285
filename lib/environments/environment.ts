import type { JsonObject, JsonValue, ToolCatalog } from '../domain/index.js';

/** What one operation answered: an HTTP-like status and the body (`{error, message}` for a rejected call). */
export interface EnvironmentAnswer {
  status: number;
  data: JsonValue;
}

/** A call the simulated API rejects, as the real API would: 400 bad input, 404 unknown id, 409 conflict, 422 business rule. */
export class EnvironmentApiError extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'EnvironmentApiError';
  }
}

/** A broken reference to an environment (unknown name or initial state): a configuration error, never a verdict. */
export class UnknownEnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownEnvironmentError';
  }
}

/** One operation: reads its arguments, changes the state in place, returns the result. Throws EnvironmentApiError to reject. */
export type EnvironmentOperation = (state: JsonObject, args: JsonObject) => JsonValue;

/**
 * A stateful API simulator (issue 12): JSON state, named initial states, and one pure, deterministic operation per tool
 * (no clock, no randomness: ids derive from the state). The catalog holds the tools' schemas as a model sees them.
 */
export interface EnvironmentDefinition {
  readonly name: string;
  readonly description: string;
  readonly catalog: ToolCatalog;
  /** each builds a fresh copy of the named initial state */
  readonly initialStates: Readonly<Record<string, () => JsonObject>>;
  readonly operations: Readonly<Record<string, EnvironmentOperation>>;
}

/**
 * One running environment, started from a named initial state. `call` is atomic: an operation runs on a copy of the
 * state, which replaces the state only when the operation succeeds, so a rejected call changes nothing.
 */
export class EnvironmentInstance {
  private current: JsonObject;

  constructor(
    readonly definition: EnvironmentDefinition,
    readonly initialState: string,
  ) {
    const build = Object.prototype.hasOwnProperty.call(definition.initialStates, initialState)
      ? definition.initialStates[initialState]
      : undefined;
    if (!build) {
      throw new UnknownEnvironmentError(
        `environment "${definition.name}" has no initial state "${initialState}" (it has: ${Object.keys(definition.initialStates).join(', ')})`,
      );
    }
    this.current = build();
  }

  call(tool: string, args: JsonObject): EnvironmentAnswer {
    const operation = Object.prototype.hasOwnProperty.call(this.definition.operations, tool) ? this.definition.operations[tool] : undefined;
    if (!operation) {
      return { status: 404, data: { error: 'unknown_operation', message: `${this.definition.name} has no operation "${tool}"` } };
    }
    const working = structuredClone(this.current);
    try {
      const data = operation(working, args);
      this.current = working;
      return { status: 200, data };
    } catch (error) {
      if (!(error instanceof EnvironmentApiError)) throw error;
      return { status: error.status, data: { error: error.code, message: error.message } };
    }
  }

  /** A copy of the current state. */
  state(): JsonObject {
    return structuredClone(this.current);
  }
}
