// The public surface of lib/adapters/shared: other folders import it from here.
export { utcIso } from './utcIso.js';
export { encodeScorecard } from './scorecardEncoding.js';
export { roundScore, similarityTerms, textSimilarity, trigramCosine, trigramVector } from './testCaseSimilarity.js';
export { ENTITY_KINDS } from './entityKinds.js';
export { EnvSecretResolver } from './envSecretResolver.js';
export { deleteLimit } from './deleteLimit.js';
