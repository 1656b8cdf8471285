import { randomUUID } from 'node:crypto';
import { TestCaseSchema, isJsonObject, type TestCase, type ToolCatalog } from '../../domain/index.js';
import { fastTestCase } from './fastTestCase.js';
import { issuesToRowErrors } from './zodIssues.js';
import type { ImportNote, ImportOptions, ImportResult, ImportRowError } from './types.js';

/**
 * Gathers the rows of one import: validates each candidate case with TestCaseSchema, gives ids to cases without one,
 * rejects duplicate ids (on the later row), fills metadata.source, and applies the all-or-nothing rule. Every format's
 * importer feeds it; it holds no format knowledge.
 */
export class ImportCollector {
  private readonly cases: TestCase[] = [];
  private readonly catalogs = new Map<string, ToolCatalog>();
  private readonly errors: ImportRowError[] = [];
  private readonly notes: ImportNote[] = [];
  private readonly firstRowOfId = new Map<string, number>();
  private readonly partial: boolean;
  private readonly source: string;
  private readonly idFactory: () => string;
  private rows = 0;

  /** `renameField` maps a TestCase path to the source's name for it (CSV: `metadata.tags.0` -> `tags.0`). */
  constructor(
    options: ImportOptions,
    defaultSource: string,
    private readonly renameField: (field: string) => string = (field) => field,
  ) {
    this.partial = options.partial ?? false;
    this.source = options.source ?? defaultSource;
    this.idFactory = options.idFactory ?? randomUUID;
  }

  get errorCount(): number {
    return this.errors.length;
  }

  /** Counts one row of input (good or bad). */
  countRow(): void {
    this.rows += 1;
  }

  addErrors(errors: readonly ImportRowError[]): void {
    if (errors.length === 0) return;
    this.errors.push(...errors);
    // all-or-nothing: nothing will be returned, so stop holding cases
    if (!this.partial) {
      this.cases.length = 0;
      this.catalogs.clear();
    }
  }

  addNote(note: ImportNote): void {
    this.notes.push(note);
  }

  /**
   * Validates one candidate (a parsed JSON row or a draft built from CSV/BFCL) and keeps it when valid.
   * `catalog`, when given, is kept with the case (and only if the case is kept). Returns the case, or undefined.
   */
  addCandidate(row: number, candidate: unknown, catalog?: ToolCatalog): TestCase | undefined {
    const { input, id, generated } = this.withIdAndSource(candidate);
    const errors: ImportRowError[] = [];
    if (id !== undefined) {
      const first = this.firstRowOfId.get(id);
      if (first !== undefined) errors.push({ row, id, field: 'id', reason: `duplicate id "${id}" (first used on row ${first})` });
      else this.firstRowOfId.set(id, row);
    }
    // the fast path gives zod's exact result on plainly valid rows; zod decides (and words the errors) otherwise
    const fast = fastTestCase(input);
    const parsed = fast !== undefined ? ({ success: true, data: fast } as const) : TestCaseSchema.safeParse(input);
    if (!parsed.success) {
      for (const error of issuesToRowErrors(row, id, parsed.error.issues)) errors.push({ ...error, field: this.renameField(error.field) });
    }
    if (errors.length > 0 || !parsed.success) {
      this.addErrors(errors);
      return undefined;
    }
    if (generated) this.addNote({ row, id, field: 'id', message: `no id in the source; generated "${id}"` });
    const testCase = parsed.data;
    if (this.partial || this.errors.length === 0) {
      this.cases.push(testCase);
      if (catalog && !this.catalogs.has(catalog.name)) this.catalogs.set(catalog.name, catalog);
    }
    return testCase;
  }

  result(): ImportResult {
    const keep = this.partial || this.errors.length === 0;
    return {
      cases: keep ? this.cases : [],
      catalogs: keep ? [...this.catalogs.values()] : [],
      errors: this.errors,
      notes: this.notes,
      total_rows: this.rows,
    };
  }

  private withIdAndSource(candidate: unknown): { input: unknown; id: string | undefined; generated: boolean } {
    if (!isJsonObject(candidate)) return { input: candidate, id: undefined, generated: false };
    const rawId = candidate['id'];
    const missing = rawId === undefined || rawId === null;
    const id = missing ? this.idFactory() : typeof rawId === 'string' && rawId !== '' ? rawId : undefined;
    const meta = candidate['metadata'];
    const metadata =
      meta === undefined
        ? { source: this.source }
        : isJsonObject(meta) && meta['source'] === undefined
          ? { ...meta, source: this.source }
          : meta;
    return { input: { ...candidate, ...(missing ? { id } : {}), metadata }, id, generated: missing };
  }
}
