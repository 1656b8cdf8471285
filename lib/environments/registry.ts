import { EnvironmentInstance, UnknownEnvironmentError, type EnvironmentDefinition } from './environment.js';
import { RETAIL_ENVIRONMENT } from './retail/retailEnvironment.js';

/** Every environment a case can name (`environment.name`). A new environment is a definition added here. */
export const ENVIRONMENTS: Readonly<Record<string, EnvironmentDefinition>> = { retail: RETAIL_ENVIRONMENT };

export function environmentDefinition(name: string): EnvironmentDefinition {
  const definition = Object.prototype.hasOwnProperty.call(ENVIRONMENTS, name) ? ENVIRONMENTS[name] : undefined;
  if (!definition) throw new UnknownEnvironmentError(`unknown environment "${name}" (known: ${Object.keys(ENVIRONMENTS).join(', ')})`);
  return definition;
}

/** A fresh instance of a named environment from a named initial state; UnknownEnvironmentError names what is unknown. */
export function startEnvironment(name: string, initialState: string): EnvironmentInstance {
  return new EnvironmentInstance(environmentDefinition(name), initialState);
}

/** Why a case's environment reference cannot work, or undefined when it can. */
export function environmentProblem(name: string, initialState: string): string | undefined {
  try {
    startEnvironment(name, initialState);
    return undefined;
  } catch (error) {
    if (error instanceof UnknownEnvironmentError) return error.message;
    throw error;
  }
}
