import { afterEach, describe, expect, it } from 'vitest';
import { ToolCatalogSchema, type ToolCatalog } from '../domain/index.js';
import { createEmbeddedStores } from '../adapters/embedded/stores.js';
import { TempDatabases } from '../adapters/embedded/tempDatabase.test-helpers.js';
import { sampleRun } from '../ports/contracts/fixtures.js';
import { ToolCatalogRecorder } from './recordToolCatalog.js';

const temps = new TempDatabases();
afterEach(() => temps.closeAll());

function snapshot(version: string, tools = ['lookup']): ToolCatalog {
  return ToolCatalogSchema.parse({ name: 'mcp-retail', tool_schema_version: version, tools: tools.map((name) => ({ name })) });
}

describe('ToolCatalogRecorder (real SQLite stores)', () => {
  it('stores each snapshot once, notes it on the run, and notes a changed tool list like a model-version change', async () => {
    const { db, changeLog } = temps.open();
    const stores = createEmbeddedStores(db, changeLog);
    await stores.runs.createRun(sampleRun('run-1', { status: 'running' }));
    const recorder = new ToolCatalogRecorder(stores);
    // a batch of concurrent cases: one write
    await Promise.all([1, 2, 3].map(() => recorder.record('run-1', snapshot('sha256:aaaa'))));
    expect((await stores.catalogs.get('mcp-retail@sha256:aaaa'))?.tools.map((t) => t.name)).toEqual(['lookup']);
    expect((await stores.runs.getRun('run-1'))?.notes).toEqual(['tool catalog snapshot: mcp-retail@sha256:aaaa']);
    // another process (a fresh recorder) seeing the same version adds nothing
    await new ToolCatalogRecorder(stores).record('run-1', snapshot('sha256:aaaa'));
    expect((await stores.runs.getRun('run-1'))?.notes).toHaveLength(1);
    // the server's tools changed mid-run
    await recorder.record('run-1', snapshot('sha256:bbbb', ['lookup', 'lookup_v2']));
    expect((await stores.runs.getRun('run-1'))?.notes).toEqual([
      'tool catalog snapshot: mcp-retail@sha256:aaaa',
      'tool catalog snapshot: mcp-retail@sha256:bbbb',
      'MCP tool list changed during the run: mcp-retail sha256:aaaa, sha256:bbbb',
    ]);
    expect((await stores.catalogs.get('mcp-retail@sha256:bbbb'))?.tools).toHaveLength(2);
  });
});
