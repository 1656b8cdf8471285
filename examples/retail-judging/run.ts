/**
 * `npm run example:judging`: issue 13's "done when" as one rerunnable script (see walkthrough.ts). The judge is a
 * SIMULATED judge (word and number overlap behind an OpenAI-compatible server on 127.0.0.1) and the two models are the
 * retail sample's SIMULATED models. Options: --cases N (the first N retail cases; default all 327), --keep (keep the
 * data dir).
 */
import { runJudgingWalkthrough } from './walkthrough.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--cases');
const cases = at >= 0 ? Number(argv[at + 1]) : 327;
if (!Number.isInteger(cases) || cases < 1) throw new Error(`--cases must be a whole number >= 1 (got ${argv[at + 1]})`);
await runJudgingWalkthrough({ cases, keep: argv.includes('--keep') });
