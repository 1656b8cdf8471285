import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { AnalyticsSink } from '../../ports/index.js';

/**
 * Analytics exports as files under one folder (embedded: EVALP_ANALYTICS_DIR, default `<data dir>/exports`). A file is
 * written beside its final name and renamed over it (atomic on one file system), so a reader never sees a part
 * and a repeated export replaces the file. Names must stay inside the folder (`..` and absolute names throw).
 */
export class FolderAnalyticsSink implements AnalyticsSink {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  describe(): string {
    return `folder ${this.root}`;
  }

  async writeFile(name: string, bytes: Uint8Array): Promise<{ location: string }> {
    const target = resolve(this.root, ...name.split('/'));
    const rel = relative(this.root, target);
    if (!rel || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..'))
      throw new RangeError(`analytics file name ${JSON.stringify(name)} leaves the export folder`);
    await mkdir(dirname(target), { recursive: true });
    const temp = join(dirname(target), `.${randomBytes(6).toString('hex')}.partial`);
    try {
      await writeFile(temp, bytes);
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return { location: target };
  }
}
