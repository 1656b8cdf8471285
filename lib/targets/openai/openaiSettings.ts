import type { TargetSettings } from '../../domain/index.js';

export type OpenAISettings = Extract<TargetSettings, { kind: 'openai' }>;
