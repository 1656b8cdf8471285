/** A task of a dependency graph: its id and the ids it depends on. */
export interface GraphTask {
  id: string;
  depends_on: readonly string[];
}

/**
 * The first cycle of the graph as a closed path (`['a', 'b', 'c', 'a']`: a depends on b, b on c, c on a), or null
 * when the graph is acyclic. Depth-first from each task in the given order, following `depends_on` in order, so the
 * cycle reported is deterministic. Edges to unknown ids are ignored (they are reported separately).
 */
export function findCycle(tasks: readonly GraphTask[]): string[] | null {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    state.set(id, 'open');
    stack.push(id);
    for (const dep of byId.get(id)?.depends_on ?? []) {
      if (!byId.has(dep)) continue;
      const s = state.get(dep);
      if (s === 'open') return [...stack.slice(stack.indexOf(dep)), dep];
      if (s === undefined) {
        const cycle = visit(dep);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(id, 'done');
    return null;
  };
  for (const task of tasks) {
    if (state.has(task.id)) continue;
    const cycle = visit(task.id);
    if (cycle) return cycle;
  }
  return null;
}

/** The tasks in an order where each comes after everything it depends on (stable: ties keep the given order). Throws on a cycle. */
export function topologicalOrder<T extends GraphTask>(tasks: readonly T[]): T[] {
  const cycle = findCycle(tasks);
  if (cycle) throw new Error(`cycle ${cycle.join(' -> ')}`);
  const placed = new Set<string>();
  const ids = new Set(tasks.map((t) => t.id));
  const out: T[] = [];
  while (out.length < tasks.length) {
    for (const t of tasks) {
      if (placed.has(t.id)) continue;
      if (t.depends_on.every((d) => placed.has(d) || !ids.has(d))) {
        placed.add(t.id);
        out.push(t);
      }
    }
  }
  return out;
}
