// The public surface of lib/adapters/execution: other folders import it from here.
export { HttpApiProvider } from './httpApiProvider.js';
export { JsonlCassette } from './jsonlCassette.js';
