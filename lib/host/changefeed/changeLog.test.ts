import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TempDatabase } from '../servicebus/testSupport.js';
import { ChangeLog } from './changeLog.js';

describe('ChangeLog', () => {
  let temp: TempDatabase;
  let log: ChangeLog;
  beforeEach(() => {
    temp = new TempDatabase();
    log = new ChangeLog(temp.db);
  });
  afterEach(() => temp.dispose());

  it('keeps one entry per write, in write order, per container, with growing sequence numbers', () => {
    log.append('scorecards', [
      { id: 'a', v: 1 },
      { id: 'b', v: 1 },
    ]);
    log.append('stats', [{ id: 'x' }]);
    log.append('scorecards', [{ id: 'a', v: 2 }]);
    const entries = log.read('scorecards', 0, 10);
    expect(entries.map((e) => [e.id, JSON.parse(e.body)])).toEqual([
      ['a', { id: 'a', v: 1 }],
      ['b', { id: 'b', v: 1 }],
      ['a', { id: 'a', v: 2 }],
    ]);
    const seqs = entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((p, q) => p - q));
    expect(log.latestSeq('scorecards')).toBe(seqs[2]);
    expect(log.read('scorecards', seqs[0]!, 1).map((e) => e.id)).toEqual(['b']);
    expect(log.read('stats', 0, 10).map((e) => e.id)).toEqual(['x']);
    expect(log.latestSeq('empty')).toBe(0);
  });

  it('takes pre-serialised JSON as is', () => {
    log.appendJson('c', [{ id: 'a', body: '{"id":"a","n":1}' }]);
    expect(log.read('c', 0, 1)).toEqual([{ seq: expect.any(Number), id: 'a', body: '{"id":"a","n":1}' }]);
  });

  it('prunes up to a sequence number and never reuses numbers afterwards', () => {
    log.append('c', [{ id: 'a' }, { id: 'b' }]);
    const last = log.latestSeq('c');
    expect(log.prune('c', last)).toBe(2);
    expect(log.latestSeq('c')).toBe(0);
    log.append('c', [{ id: 'c' }]);
    expect(log.read('c', last, 10).map((e) => e.id)).toEqual(['c']);
  });

  it.each([
    ['a missing id', { v: 1 }],
    ['an empty id', { id: '' }],
    ['a numeric id', { id: 7 }],
  ])('rejects %s and writes nothing', (_label, doc) => {
    expect(() => log.append('c', [{ id: 'ok' }, doc as { id: string }])).toThrow(TypeError);
    expect(log.latestSeq('c')).toBe(0);
  });

  it("joins the caller's transaction (rolled back with it) and notifies listeners of its container", () => {
    const woken: string[] = [];
    log.onAppend('c', () => woken.push('c'));
    const write = temp.db.transaction(() => {
      log.append('c', [{ id: 'a' }]);
      throw new Error('caller failed');
    });
    expect(() => write()).toThrow('caller failed');
    expect(log.read('c', 0, 10)).toEqual([]);
    log.append('other', [{ id: 'b' }]);
    log.append('c', [{ id: 'c' }]);
    expect(woken).toEqual(['c', 'c']);
  });
});
