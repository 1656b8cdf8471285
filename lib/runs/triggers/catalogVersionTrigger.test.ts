import { describe, expect, it } from 'vitest';
import { compareVersions } from './catalogVersionTrigger.js';
import { triggerRunId } from './triggerRun.js';

describe('catalog version order and trigger run ids', () => {
  it('orders versions numerically where they hold numbers', () => {
    expect(['2026-10', '2026-9', '2026-01', '1.10', '1.9', '2'].sort(compareVersions)).toEqual([
      '1.9',
      '1.10',
      '2',
      '2026-01',
      '2026-9',
      '2026-10',
    ]);
    expect(compareVersions('v2', 'v2')).toBe(0);
    expect(compareVersions('B', 'b')).not.toBe(0); // distinct versions never compare equal
  });

  it('gives one id per event, valid as a run id', () => {
    const id = triggerRunId('catalog_version', 'acme', 'smoke', 'retail@2');
    expect(id).toMatch(/^trg-catalog-[0-9a-f]{32}$/);
    expect(triggerRunId('catalog_version', 'acme', 'smoke', 'retail@2')).toBe(id);
    expect(triggerRunId('catalog_version', 'acme', 'smoke', 'retail@3')).not.toBe(id);
    expect(triggerRunId('new_cases', 'acme', 'smoke', 'retail@2')).toMatch(/^trg-cases-/);
  });
});
