import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.EVALP_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless Chromium for browser tests, or the reason there is none. Locally a missing browser skips the test
 * (with the reason printed); in CI (`CI` set) it fails, since `.ci/run` installs it (scripts/ensure-chromium.sh).
 */
export async function launchChromium(skip: (note?: string) => void): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    const reason = `no Chromium at ${CHROMIUM_PATH} (install it with scripts/ensure-chromium.sh, or set EVALP_CHROMIUM)`;
    if (process.env.CI) throw new Error(`${reason}: browser tests must run in CI`);
    process.stderr.write(`skipping the browser test: ${reason}\n`);
    skip(reason);
  }
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}
