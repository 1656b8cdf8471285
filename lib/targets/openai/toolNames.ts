import { createHash } from 'node:crypto';

/** What OpenAI accepts as a function name: letters, digits, `_` and `-`, at most 64 characters. */
const WIRE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_WIRE_LENGTH = 64;

/**
 * Catalog tool names <-> the names sent to an OpenAI-compatible endpoint. Catalog names may contain dots
 * (`orders.search`) and run to 128 characters, which OpenAI rejects. Each other character becomes `_`; a name
 * longer than 64 is cut to 55 plus `_` and 8 hex characters of its SHA-1; a mapped name that collides with another
 * (`a.b` next to `a_b`) gets `_2`, `_3`, ... Names that are already valid always keep their name; the others are
 * numbered in catalog order, so the mapping is stable. Names the model invents that are in no catalog come back unchanged.
 */
export class ToolNameMap {
  private readonly wireByName = new Map<string, string>();
  private readonly nameByWire = new Map<string, string>();

  constructor(names: readonly string[]) {
    // valid names first, so that they keep their own name even when a mapped one would produce it
    const ordered = [...names.filter((n) => WIRE_NAME.test(n)), ...names.filter((n) => !WIRE_NAME.test(n))];
    for (const name of ordered) {
      if (this.wireByName.has(name)) continue;
      const wire = this.unique(sanitize(name));
      this.wireByName.set(name, wire);
      this.nameByWire.set(wire, name);
    }
  }

  /** true when some name is sent under another name */
  get renames(): boolean {
    for (const [name, wire] of this.wireByName) if (name !== wire) return true;
    return false;
  }

  toWire(name: string): string {
    return this.wireByName.get(name) ?? name;
  }

  fromWire(wire: string): string {
    return this.nameByWire.get(wire) ?? wire;
  }

  private unique(base: string): string {
    if (!this.nameByWire.has(base)) return base;
    for (let n = 2; ; n++) {
      const suffix = `_${n}`;
      const candidate = `${base.slice(0, MAX_WIRE_LENGTH - suffix.length)}${suffix}`;
      if (!this.nameByWire.has(candidate)) return candidate;
    }
  }
}

function sanitize(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
  if (replaced.length <= MAX_WIRE_LENGTH) return replaced;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${replaced.slice(0, MAX_WIRE_LENGTH - 9)}_${hash}`;
}
