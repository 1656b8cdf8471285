#!/usr/bin/env node
// The `evalp` command. Runs the compiled CLI (built by `npm install` through the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/lib/cli/main.js', import.meta.url));
if (!existsSync(compiled)) {
  process.stderr.write('evalp: the CLI is not built yet; run `npm run build` (npm install does it through `prepare`)\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(compiled).href);
await main(process.argv);
