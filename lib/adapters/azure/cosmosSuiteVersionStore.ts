import { BulkOperationType, type Container, type OperationInput } from '@azure/cosmos';
import { SuiteVersionSchema, TestCaseSchema, type SuiteVersion, type SuiteVersionCase, type TestCase } from '../../domain/index.js';
import { NotFoundError, type Page, type PageOptions, type PublishedCase, type SuiteVersionStore } from '../../ports/index.js';
import { assertBulk, executeBulk, queryAll, queryByIds, queryPages } from './cosmosBulk.js';
import { readOrUndefined, toStoreError } from './cosmosErrors.js';
import { toCosmosId } from './cosmosIds.js';
import { pageWindow } from './cosmosPaging.js';

/** The version's header: `publishing` while its cases are written, `published` once complete (readers see only those). */
interface HeaderDocument {
  id: string;
  suite_id: string;
  version_key: string;
  type: 'version';
  version: number;
  state: 'publishing' | 'published';
  body: SuiteVersion;
  _etag?: string;
}

interface CaseDocument {
  id: string;
  suite_id: string;
  version_key: string;
  type: 'case';
  test_case_id: string;
  position: number;
  content_hash: string;
  body: TestCase;
}

const keyOf = (suiteId: string, version: number): [string, string] => [suiteId, String(version)];
/** ids carry the version too: unique within the suite as well as within the version's partition */
const headerId = (version: number): string => `v${version}`;
const caseDocId = (version: number, testCaseId: string): string => toCosmosId(`v${version}:case:${testCaseId}`);

/**
 * Suite versions on Cosmos DB, container `suiteversions` (hierarchical key [suite_id, version]): a header document
 * created first with state `publishing` (a 409 there is the ConflictError of a number already taken), then the
 * case documents (bulk upserts), then the header replaced with state `published`. Readers see published headers
 * only, so a publication that died half-way is never read (its number stays taken; the next publish takes the
 * next number).
 */
export class CosmosSuiteVersionStore implements SuiteVersionStore {
  constructor(private readonly container: Container) {}

  async publish(version: SuiteVersion, cases: readonly PublishedCase[]): Promise<SuiteVersion> {
    const valid = SuiteVersionSchema.parse({ ...version, case_count: cases.length });
    const [suiteId, versionKey] = keyOf(valid.suite_id, valid.version);
    const header: HeaderDocument = {
      id: headerId(valid.version),
      suite_id: suiteId,
      version_key: versionKey,
      type: 'version',
      version: valid.version,
      state: 'publishing',
      body: valid,
    };
    try {
      await this.container.items.create<HeaderDocument>(header);
    } catch (error) {
      throw toStoreError(error, 'suite version', `${valid.suite_id}@${valid.version}`);
    }
    const operations: OperationInput[] = cases.map((c, position) => ({
      operationType: BulkOperationType.Upsert,
      partitionKey: [suiteId, versionKey],
      resourceBody: {
        id: caseDocId(valid.version, c.test_case.id),
        suite_id: suiteId,
        version_key: versionKey,
        type: 'case',
        test_case_id: c.test_case.id,
        position,
        content_hash: c.content_hash,
        body: c.test_case,
      } satisfies CaseDocument as unknown as Record<string, never>,
    }));
    assertBulk(await executeBulk(this.container, operations), (status) => status < 300);
    await this.container.item(headerId(valid.version), [suiteId, versionKey]).replace<HeaderDocument>({ ...header, state: 'published' });
    return valid;
  }

  async getVersion(suiteId: string, version: number): Promise<SuiteVersion | undefined> {
    const doc = await readOrUndefined(this.container.item(headerId(version), keyOf(suiteId, version)).read<HeaderDocument>());
    return doc && doc.state === 'published' ? SuiteVersionSchema.parse(doc.body) : undefined;
  }

  async listVersions(suiteId: string): Promise<SuiteVersion[]> {
    const docs = await queryAll<HeaderDocument>(this.container, {
      query: "SELECT * FROM c WHERE c.suite_id = @suite AND c.type = 'version' AND c.state = 'published'",
      parameters: [{ name: '@suite', value: suiteId }],
    });
    return docs.sort((a, b) => b.version - a.version).map((d) => SuiteVersionSchema.parse(d.body));
  }

  async listCases(suiteId: string, version: number, options: PageOptions = {}): Promise<Page<SuiteVersionCase>> {
    const found = await this.requireVersion(suiteId, version);
    const { limit, offset } = pageWindow(options);
    const docs = await queryAll<CaseDocument>(
      this.container,
      {
        query:
          "SELECT * FROM c WHERE c.type = 'case' AND c.suite_id = @suite AND c.version_key = @key AND c.position >= @from AND c.position < @to ORDER BY c.position",
        parameters: [
          { name: '@suite', value: suiteId },
          { name: '@key', value: String(version) },
          { name: '@from', value: offset },
          { name: '@to', value: offset + limit },
        ],
      },
      keyOf(suiteId, version),
    );
    const items = docs.map(caseOf);
    return { items, total: found.case_count, has_more: offset + items.length < found.case_count, limit, offset };
  }

  async *iterateCases(suiteId: string, version: number): AsyncIterable<SuiteVersionCase> {
    await this.requireVersion(suiteId, version);
    const pages = queryPages<CaseDocument>(
      this.container,
      {
        query: "SELECT * FROM c WHERE c.type = 'case' AND c.suite_id = @suite AND c.version_key = @key ORDER BY c.position",
        parameters: [
          { name: '@suite', value: suiteId },
          { name: '@key', value: String(version) },
        ],
      },
      { maxItemCount: 1_000, partitionKey: keyOf(suiteId, version) },
    );
    for await (const page of pages) yield* page.map(caseOf);
  }

  async getCaseBodies(suiteId: string, version: number, ids: readonly string[]): Promise<TestCase[]> {
    const [suite, key] = keyOf(suiteId, version);
    const found = await queryByIds<CaseDocument>(
      this.container,
      ids.map((id) => caseDocId(version, id)),
      {
        condition: 'c.suite_id = @suite AND c.version_key = @key',
        parameters: [
          { name: '@suite', value: suite },
          { name: '@key', value: key },
        ],
      },
    );
    return ids.flatMap((id) => {
      const doc = found.get(caseDocId(version, id));
      return doc ? [TestCaseSchema.parse(doc.body)] : [];
    });
  }

  private async requireVersion(suiteId: string, version: number): Promise<SuiteVersion> {
    const found = await this.getVersion(suiteId, version);
    if (!found) throw new NotFoundError('suite version', `${suiteId}@${version}`);
    return found;
  }
}

function caseOf(d: CaseDocument): SuiteVersionCase {
  return { test_case_id: d.test_case_id, position: d.position, content_hash: d.content_hash };
}
