import {
  BulkOperationType,
  ErrorResponse,
  type BulkOperationResult,
  type Container,
  type CosmosDiagnostics,
  type JSONObject,
  type OperationInput,
  type PartitionKey,
  type SqlParameter,
  type SqlQuerySpec,
} from '@azure/cosmos';
import { cosmosStatus } from './cosmosErrors.js';

/** Operations handed to one `executeBulkOperations` call (the SDK groups them per partition range, 100 per request). */
const BULK_CHUNK = 10_000;

/** A bulk operation's HTTP status (from its response or its error). */
export function bulkStatus(result: BulkOperationResult): number {
  return result.response?.statusCode ?? cosmosStatus(result.error) ?? 500;
}

/** An operation failed with a status the caller did not expect: infrastructure, not data. */
export class CosmosBulkError extends Error {
  override readonly name = 'CosmosBulkError';
  constructor(
    readonly status: number,
    readonly operation: OperationInput,
    detail: string,
  ) {
    super(`Cosmos DB bulk ${operation.operationType} failed with status ${status}: ${detail}`);
  }
}

/** Throws the first result whose status is not accepted. */
export function assertBulk(results: readonly BulkOperationResult[], accepted: (status: number) => boolean): void {
  for (const result of results) {
    const status = bulkStatus(result);
    if (!accepted(status)) throw new CosmosBulkError(status, result.operationInput, result.error?.message ?? 'no detail');
  }
}

/**
 * Below this many operations `executeBulk` sends point operations in parallel instead: the SDK's
 * `executeBulkOperations` waits at least one second for a partial batch to fill (BulkHelper
 * `intervalForPartialBatchInMs`), too slow for a single write on the API path; above it, bulk.
 */
export const BULK_THRESHOLD = 50;
const POINT_CONCURRENCY = 16;

/**
 * Runs operations with `executeBulkOperations` (in chunks of 1,000) when there are BULK_THRESHOLD or more, else as
 * parallel point operations with the same result shape; results in the order of `operations`.
 */
export async function executeBulk(container: Container, operations: readonly OperationInput[]): Promise<BulkOperationResult[]> {
  if (operations.length < BULK_THRESHOLD) return executePoint(container, operations);
  const results: BulkOperationResult[] = [];
  for (let i = 0; i < operations.length; i += BULK_CHUNK) {
    results.push(...(await container.items.executeBulkOperations(operations.slice(i, i + BULK_CHUNK))));
  }
  return results;
}

async function executePoint(container: Container, operations: readonly OperationInput[]): Promise<BulkOperationResult[]> {
  const results = new Array<BulkOperationResult>(operations.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < operations.length) {
      const i = next++;
      results[i] = await pointOperation(container, operations[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(POINT_CONCURRENCY, operations.length) }, worker));
  return results;
}

async function pointOperation(container: Container, operation: OperationInput): Promise<BulkOperationResult> {
  const condition =
    'ifMatch' in operation && operation.ifMatch ? { accessCondition: { type: 'IfMatch', condition: operation.ifMatch } } : {};
  try {
    let response: { statusCode: number; etag?: string; resource?: unknown; requestCharge?: number; diagnostics: CosmosDiagnostics };
    switch (operation.operationType) {
      case BulkOperationType.Create:
        response = await container.items.create(operation.resourceBody, condition);
        break;
      case BulkOperationType.Upsert:
        response = await container.items.upsert(operation.resourceBody, condition);
        break;
      case BulkOperationType.Read:
        response = await container.item(operation.id, operation.partitionKey).read();
        break;
      case BulkOperationType.Delete:
        response = await container.item(operation.id, operation.partitionKey).delete();
        break;
      case BulkOperationType.Replace:
        response = await container.item(operation.id, operation.partitionKey).replace(operation.resourceBody, condition);
        break;
      default:
        throw new Error(`executeBulk: ${operation.operationType} is not supported as a point operation`);
    }
    if (response.statusCode >= 400)
      return { operationInput: operation, error: errorResponse(response.statusCode, `status ${response.statusCode}`) };
    return {
      operationInput: operation,
      response: {
        statusCode: response.statusCode,
        requestCharge: response.requestCharge ?? 0,
        ...(response.etag ? { eTag: response.etag } : {}),
        ...(response.resource ? { resourceBody: response.resource as JSONObject } : {}),
        diagnostics: response.diagnostics,
      },
    };
  } catch (error) {
    const status = cosmosStatus(error);
    if (status === undefined) throw error;
    return { operationInput: operation, error: errorResponse(status, (error as Error).message) };
  }
}

/** Ids per `IN` list of `queryByIds` (keeps each query well under the 256 KB query-text limit). */
export const IDS_PER_QUERY = 250;

/**
 * Reads many items by id with `SELECT * FROM c WHERE <scope> AND c.id IN (...)` queries, IDS_PER_QUERY ids each,
 * in parallel; the map holds the found items by id. Faster than bulk Read operations for a batch (no ~1 s bulk
 * drain wait) at about the same request units (index lookups by id). `scope` narrows the partitions read
 * (e.g. `c.run_id = @run` on a hierarchical key).
 */
export async function queryByIds<T extends { id: string }>(
  container: Container,
  ids: readonly string[],
  scope?: { condition: string; parameters: SqlParameter[] },
): Promise<Map<string, T>> {
  const unique = [...new Set(ids)];
  const chunks: string[][] = [];
  for (let i = 0; i < unique.length; i += IDS_PER_QUERY) chunks.push(unique.slice(i, i + IDS_PER_QUERY));
  const pages = await Promise.all(
    chunks.map((chunk) =>
      queryAll<T>(container, {
        query: `SELECT * FROM c WHERE ${scope ? `${scope.condition} AND ` : ''}ARRAY_CONTAINS(@ids, c.id)`,
        parameters: [...(scope?.parameters ?? []), { name: '@ids', value: chunk }],
      }),
    ),
  );
  const found = new Map<string, T>();
  for (const page of pages) for (const item of page) found.set(item.id, item);
  return found;
}

/** Every result of a query (small result sets: pages, counts). */
export async function queryAll<T>(container: Container, query: SqlQuerySpec, partitionKey?: PartitionKey): Promise<T[]> {
  const { resources } = await container.items.query<T>(query, partitionKey === undefined ? {} : { partitionKey }).fetchAll();
  return resources;
}

/** `SELECT VALUE COUNT(1)` over a query's WHERE clause. */
export async function countWhere(
  container: Container,
  where: string,
  parameters: SqlQuerySpec['parameters'],
  partitionKey?: PartitionKey,
): Promise<number> {
  const [count] = await queryAll<number>(
    container,
    { query: `SELECT VALUE COUNT(1) FROM c${where}`, parameters: parameters ?? [] },
    partitionKey,
  );
  return count ?? 0;
}

/** Streams a query's results page by page (the SDK's continuation; memory holds one page). */
export async function* queryPages<T>(
  container: Container,
  query: SqlQuerySpec,
  options: { maxItemCount: number; partitionKey?: PartitionKey },
): AsyncIterable<T[]> {
  const iterator = container.items.query<T>(query, options);
  while (iterator.hasMoreResults()) {
    const { resources } = await iterator.fetchNext();
    if (resources.length > 0) yield resources;
  }
}

function errorResponse(status: number, message: string): ErrorResponse {
  const error = new ErrorResponse(message);
  error.code = status;
  return error;
}
