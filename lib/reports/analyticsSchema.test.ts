import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANALYTICS_COLUMNS, ANALYTICS_SCHEMA_VERSION } from './analyticsSchema.js';

interface Snapshot {
  versions: Record<string, Array<{ name: string; type: string; nullable: boolean }>>;
}

const snapshot = JSON.parse(readFileSync(new URL('./analyticsSchema.snapshot.json', import.meta.url), 'utf8')) as Snapshot;
const current = ANALYTICS_COLUMNS.map(({ name, type, nullable }) => ({ name, type, nullable }));

describe('analytics schema versioning', () => {
  it('the columns equal the snapshot of ANALYTICS_SCHEMA_VERSION (a changed column needs a version bump and a new snapshot entry)', () => {
    const recorded = snapshot.versions[String(ANALYTICS_SCHEMA_VERSION)];
    expect(recorded, `analyticsSchema.snapshot.json has no entry for version ${ANALYTICS_SCHEMA_VERSION}`).toBeDefined();
    expect(current).toEqual(recorded);
  });

  it('no snapshot is newer than the current version, and versions only grow', () => {
    const versions = Object.keys(snapshot.versions).map(Number);
    expect(Math.max(...versions)).toBe(ANALYTICS_SCHEMA_VERSION);
  });

  it('column names are unique snake_case and every column is described', () => {
    const names = ANALYTICS_COLUMNS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of ANALYTICS_COLUMNS) {
      expect(c.name).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(c.description.length).toBeGreaterThan(5);
    }
  });

  it('docs/analytics-export.md documents every column with its type', () => {
    const doc = readFileSync(new URL('../../docs/analytics-export.md', import.meta.url), 'utf8');
    for (const c of ANALYTICS_COLUMNS) expect(doc, c.name).toMatch(new RegExp(`\\| \`${c.name}\` \\| ${c.type} \\|`));
    expect(doc).toContain(`schema_version ${ANALYTICS_SCHEMA_VERSION}`);
  });
});
