import type { ToolCatalog } from '../domain/index.js';
import type { Stores } from '../ports/index.js';

const MAX_REMEMBERED = 10_000;

/**
 * Keeps the tool lists a run's model was offered by its MCP servers: each catalog snapshot (name@content-hash) is
 * stored in the catalog store once, so reports and stage 1 can name exactly what the model saw, and noted on the run
 * (`tool catalog snapshot: mcp-retail@sha256:…`). When a second version of the same list shows up during the run (a
 * server was redeployed or changed its tools), the run gets `MCP tool list changed during the run: <name> v1, v2`,
 * as a model-version change is noted. Once per run and version per process (concurrent cases share one write).
 * Notes are read-modified-written without an ETag: two processes seeing new versions at the same instant may lose
 * one note line, never a catalog.
 */
export class ToolCatalogRecorder {
  private readonly done = new Map<string, Promise<void>>();

  constructor(private readonly stores: Pick<Stores, 'catalogs' | 'runs'>) {}

  record(runId: string, catalog: ToolCatalog): Promise<void> {
    const id = `${catalog.name}@${catalog.tool_schema_version}`;
    const key = `${runId}\u0000${id}`;
    let pending = this.done.get(key);
    if (!pending) {
      pending = this.write(runId, id, catalog);
      this.done.set(key, pending);
      pending.catch(() => this.done.delete(key)); // try again with the next case
      if (this.done.size > MAX_REMEMBERED) this.done.delete(this.done.keys().next().value as string);
    }
    return pending;
  }

  private async write(runId: string, id: string, catalog: ToolCatalog): Promise<void> {
    if (!(await this.stores.catalogs.get(id))) await this.stores.catalogs.upsert({ ...catalog, id });
    const run = await this.stores.runs.getRun(runId);
    if (!run) return;
    const line = snapshotNote(id);
    if (run.notes.includes(line)) return;
    const versions = [
      ...run.notes.filter((n) => n.startsWith(snapshotNote(`${catalog.name}@`))).map((n) => n.slice(snapshotNote('').length)),
      id,
    ];
    const notes = [...run.notes, line];
    if (versions.length > 1) {
      notes.push(
        `MCP tool list changed during the run: ${catalog.name} ${versions.map((v) => v.slice(catalog.name.length + 1)).join(', ')}`,
      );
    }
    await this.stores.runs.updateRun(runId, { notes });
  }
}

function snapshotNote(id: string): string {
  return `tool catalog snapshot: ${id}`;
}

const recorders = new WeakMap<object, ToolCatalogRecorder>();

/** The process's recorder for these stores (one per Services). */
export function toolCatalogRecorder(stores: Pick<Stores, 'catalogs' | 'runs'>): ToolCatalogRecorder {
  let recorder = recorders.get(stores);
  if (!recorder) {
    recorder = new ToolCatalogRecorder(stores);
    recorders.set(stores, recorder);
  }
  return recorder;
}
