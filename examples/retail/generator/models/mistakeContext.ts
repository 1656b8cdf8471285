import type { Prng } from '../prng.js';
import type { World } from '../world/types.js';

/** What a mistake may look at: the world (to make plausible wrong calls), a random stream, the output format. */
export interface MistakeContext {
  world: World;
  rng: Prng;
  format: 'openai' | 'anthropic';
}
