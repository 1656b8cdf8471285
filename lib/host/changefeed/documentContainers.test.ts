import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempDatabase } from '../servicebus/testSupport.js';
import { ChangeLog } from './changeLog.js';
import { DocumentContainers } from './documentContainers.js';
import { DocumentConflictError, DocumentNotFoundError, PreconditionFailedError } from './documentErrors.js';

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0, 500);

describe('DocumentContainers', () => {
  let temp: TempDatabase;
  let log: ChangeLog;
  let containers: DocumentContainers;
  beforeEach(() => {
    temp = new TempDatabase();
    log = new ChangeLog(temp.db);
    containers = new DocumentContainers(temp.db, log, { now: () => NOW, partitionKeyPaths: { scorecards: ['/runId', '/shard'] } });
  });
  afterEach(() => temp.dispose());

  it('upserts with _etag and _ts, reads back, and appends each stored version to the change log', () => {
    const [stored] = containers.upsert('scorecards', [{ id: 's1', runId: 'r1', shard: 3, score: 1 }]);
    expect(stored).toEqual({
      id: 's1',
      runId: 'r1',
      shard: 3,
      score: 1,
      _etag: expect.stringMatching(/^"[0-9a-f-]{36}"$/),
      _ts: Math.floor(NOW / 1000),
    });
    expect(containers.get('scorecards', 's1')).toEqual(stored);
    const [again] = containers.upsert('scorecards', [{ id: 's1', runId: 'r1', shard: 3, score: 0 }]);
    expect(again!._etag).not.toBe(stored!._etag);
    expect(log.read('scorecards', 0, 10).map((e) => JSON.parse(e.body))).toEqual([stored, again]);
    expect(temp.db.prepare('SELECT partition_key FROM doc_items WHERE id = ?').get('s1')).toEqual({ partition_key: '["r1",3]' });
    expect(containers.get('scorecards', 'missing')).toBeUndefined();
  });

  it('replaces only when ifMatch matches the current _etag', () => {
    const [stored] = containers.upsert('c', [{ id: 'a', n: 1 }]);
    const replaced = containers.replace('c', { id: 'a', n: 2 }, { ifMatch: stored!._etag });
    expect(replaced).toMatchObject({ id: 'a', n: 2 });
    let error: unknown;
    try {
      containers.replace('c', { id: 'a', n: 3 }, { ifMatch: stored!._etag });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toMatchObject({
      code: 412,
      statusCode: 412,
      containerName: 'c',
      id: 'a',
      expectedEtag: stored!._etag,
      actualEtag: replaced._etag,
    });
    expect(containers.get('c', 'a')).toEqual(replaced);
    expect(log.read('c', 0, 10)).toHaveLength(2);
  });

  it.each([
    ['replace of a missing document', () => containers.replace('c', { id: 'nope' }), DocumentNotFoundError, 404],
    ['create of an existing document', () => containers.create('c', { id: 'a' }), DocumentConflictError, 409],
  ])('throws on %s', (_label, act, type, code) => {
    containers.upsert('c', [{ id: 'a' }]);
    expect(act).toThrow(type);
    expect(act).toThrow(expect.objectContaining({ code }));
    expect(log.read('c', 0, 10)).toHaveLength(1);
  });

  it('creates a new document', () => {
    expect(containers.create('c', { id: 'new', v: 1 })).toMatchObject({ id: 'new', v: 1 });
    expect(containers.get('c', 'new')).toMatchObject({ v: 1 });
  });

  it('deletes idempotently without writing to the change log', () => {
    containers.upsert('c', [{ id: 'a' }]);
    expect(containers.delete('c', 'a')).toBe(true);
    expect(containers.delete('c', 'a')).toBe(false);
    expect(containers.get('c', 'a')).toBeUndefined();
    expect(log.read('c', 0, 10)).toHaveLength(1);
  });

  it('writes nothing when one document of a batch is invalid', () => {
    expect(() => containers.upsert('c', [{ id: 'a' }, { id: '' }])).toThrow(TypeError);
    expect(containers.get('c', 'a')).toBeUndefined();
    expect(log.latestSeq('c')).toBe(0);
  });

  it("rolls back the document and its change-log entry with the caller's transaction", () => {
    const write = temp.db.transaction(() => {
      containers.upsert('c', [{ id: 'a' }]);
      throw new Error('caller failed');
    });
    expect(() => write()).toThrow('caller failed');
    expect(containers.get('c', 'a')).toBeUndefined();
    expect(log.latestSeq('c')).toBe(0);
  });
});
