import { describe, expect, it } from 'vitest';
import { ToolNameMap } from './toolNames.js';

describe('ToolNameMap', () => {
  it.each([
    ['get_weather', 'get_weather'],
    ['orders.search', 'orders_search'],
    ['crm.v2.contacts-list', 'crm_v2_contacts-list'],
  ])('%s is sent as %s and mapped back', (name, wire) => {
    const map = new ToolNameMap([name]);
    expect(map.toWire(name)).toBe(wire);
    expect(map.fromWire(wire)).toBe(name);
  });

  it('keeps valid names and disambiguates collisions with _2, _3 in catalog order', () => {
    const map = new ToolNameMap(['a.b', 'a_b', 'a-b', 'a:b']);
    expect(['a.b', 'a_b', 'a-b', 'a:b'].map((n) => map.toWire(n))).toEqual(['a_b_2', 'a_b', 'a-b', 'a_b_3']);
    expect(['a_b_2', 'a_b', 'a-b', 'a_b_3'].map((w) => map.fromWire(w))).toEqual(['a.b', 'a_b', 'a-b', 'a:b']);
  });

  it('shortens names over 64 characters with a hash, distinct per name', () => {
    const long1 = `${'x'.repeat(70)}.one`;
    const long2 = `${'x'.repeat(70)}.two`;
    const map = new ToolNameMap([long1, long2]);
    const [w1, w2] = [map.toWire(long1), map.toWire(long2)];
    expect(w1).toMatch(/^x{55}_[0-9a-f]{8}$/);
    expect(w2).toMatch(/^x{55}_[0-9a-f]{8}$/);
    expect(w1).not.toBe(w2);
    expect([map.fromWire(w1), map.fromWire(w2)]).toEqual([long1, long2]);
  });

  it('leaves unknown names alone in both directions and reports whether anything is renamed', () => {
    const map = new ToolNameMap(['get_weather']);
    expect([map.toWire('made.up'), map.fromWire('made_up')]).toEqual(['made.up', 'made_up']);
    expect(map.renames).toBe(false);
    expect(new ToolNameMap(['orders.search']).renames).toBe(true);
  });
});
