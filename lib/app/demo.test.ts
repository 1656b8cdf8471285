import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../host/index.js';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../platform/embedded.js';
import { DEMO_TARGETS, loadRetailSample } from './demo.js';
import { packageRoot } from './packageRoot.js';

const SAMPLE = join(packageRoot(), 'examples', 'retail');
let platform: EmbeddedPlatform;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'evalp-demo-'));
  platform = await startEmbeddedPlatform({ dataDir, port: 0, logger: silentLogger });
}, 60_000);

afterAll(async () => {
  await platform?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the bundled retail sample as seeded by loadRetailSample', () => {
  it('stores its two models under ids and names that say they are simulated, as the sample describes them', async () => {
    await loadRetailSample(platform.services, SAMPLE);
    const sample = JSON.parse(await readFile(join(SAMPLE, 'sample.json'), 'utf8')) as {
      targets: { id: string; model: string; outputs: string }[];
    };
    // the ids are what leaderboards, reports and run lists show: they must read as simulated, never as a real model
    expect(DEMO_TARGETS.map((t) => t.id)).toEqual(['simulated-model-a', 'simulated-model-b']);
    expect(sample.targets.map((t) => [t.id, t.model, t.outputs])).toEqual(DEMO_TARGETS.map((t) => [t.id, t.id, t.outputs]));
    for (const { id } of DEMO_TARGETS) {
      const stored = (await platform.services.stores.targets.get(id))!;
      expect(stored.id).toMatch(/^simulated-/);
      expect(stored.name).toMatch(/simulated model [AB] \(generated outputs, recorded\)/);
    }
  }, 60_000);
});
