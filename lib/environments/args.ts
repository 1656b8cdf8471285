import type { JsonObject } from '../domain/index.js';
import { EnvironmentApiError } from './environment.js';

/** Argument readers for operations: a missing or mistyped argument is a 400, as a real API answers. */
export function requiredString(args: JsonObject, name: string): string {
  const value = args[name];
  if (value === undefined || value === null) throw new EnvironmentApiError(400, 'missing_argument', `${name} is required`);
  if (typeof value !== 'string' || value.trim() === '')
    throw new EnvironmentApiError(400, 'invalid_argument', `${name} must be a non-empty string`);
  return value;
}

export function optionalString(args: JsonObject, name: string): string | undefined {
  return args[name] === undefined || args[name] === null ? undefined : requiredString(args, name);
}

export function requiredNumber(args: JsonObject, name: string): number {
  const value = args[name];
  if (value === undefined || value === null) throw new EnvironmentApiError(400, 'missing_argument', `${name} is required`);
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new EnvironmentApiError(400, 'invalid_argument', `${name} must be a number`);
  return value;
}

export function requiredInteger(args: JsonObject, name: string): number {
  const value = requiredNumber(args, name);
  if (!Number.isInteger(value)) throw new EnvironmentApiError(400, 'invalid_argument', `${name} must be an integer`);
  return value;
}

export function optionalEnum<T extends string>(args: JsonObject, name: string, allowed: readonly T[]): T | undefined {
  const value = optionalString(args, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new EnvironmentApiError(400, 'invalid_argument', `${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** Arguments the operation does not know are rejected (a real API with a strict schema answers 400). */
export function onlyKnown(args: JsonObject, known: readonly string[]): void {
  for (const key of Object.keys(args)) {
    if (!known.includes(key))
      throw new EnvironmentApiError(400, 'unknown_argument', `unknown argument "${key}" (accepted: ${known.join(', ')})`);
  }
}

/** The record with this id in a collection of the state, or a 404 naming the id. */
export function byId<T>(collection: Record<string, T>, id: string, noun: string): T {
  if (!Object.prototype.hasOwnProperty.call(collection, id)) throw new EnvironmentApiError(404, 'not_found', `${noun} ${id} not found`);
  return collection[id]!;
}

/** Money rounded to cents. */
export function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
