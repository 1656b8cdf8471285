import { createRequire } from 'node:module';
import type * as AzureFunctions from '@azure/functions';

export type FunctionsLibrary = typeof AzureFunctions;

let library: FunctionsLibrary | undefined;

/**
 * The @azure/functions module object (its classes: InvocationContext, HttpRequest, HttpResponse). Loaded through
 * require because in plain Node ESM only `app`, `input`, `output` and `trigger` are named exports of the package.
 * Loading it does not touch `@azure/functions-core` (the library asks for it lazily on the first app.* call).
 */
export function functionsLibrary(): FunctionsLibrary {
  library ??= createRequire(import.meta.url)('@azure/functions') as FunctionsLibrary;
  return library;
}
