/**
 * Where a benchmark's CPU goes, by phase of a run, without an external profiler: V8's sampling profiler (through
 * node:inspector) runs while the run does, and each sample is charged to the phase of the innermost frame whose
 * source file belongs to one (rules below, checked from the leaf up). Native work (SQLite, JSON.parse) is charged to
 * the platform code that called it; samples after an `await` resume in the function that awaited, so they land in
 * the right phase too. Garbage collection and idle time are their own lines.
 */
import { Session } from 'node:inspector/promises';

export interface PhaseRule {
  phase: string;
  /** matched against the frame's script URL (a dist/ or source path) */
  file: RegExp;
}

/** The phases of a run on the embedded host, in the order they are printed. The first rule that matches a frame wins. */
export const RUN_PHASES: readonly PhaseRule[] = [
  {
    phase: 'enqueue (plan, shards, orchestrator)',
    file: /lib\/runs\/(enqueueShard|planRun|createRun|sampleCases|suiteCases)\.|functions\/durable\/|lib\/host\/durable\//,
  },
  { phase: 'finalize', file: /lib\/runs\/finalizeRun\./ },
  {
    phase: 'stage 3 (execution)',
    file: /lib\/evaluation\/execution\/|lib\/adapters\/execution\/|lib\/targets\/replay\/.*cassette|recorded/i,
  },
  { phase: 'stages 1-2 (syntax, logic, scorecard)', file: /lib\/evaluation\/|lib\/domain\// },
  { phase: 'target (replay outputs)', file: /lib\/targets\// },
  { phase: 'scorecard writes', file: /lib\/adapters\/embedded\/scorecard|lib\/adapters\/shared\/scorecard/ },
  {
    phase: 'change feed + live statistics',
    file: /lib\/host\/changefeed\/|functions\/feeds\/|lib\/adapters\/embedded\/runStats|lib\/runs\/aggregateOutcomes/,
  },
  { phase: 'case loading (gold set reads)', file: /lib\/adapters\/embedded\/testCase|lib\/runs\/loadRunCases/ },
  { phase: 'queues (send, lock, settle)', file: /lib\/host\/servicebus\/|lib\/adapters\/embedded\/embeddedQueue/ },
  { phase: 'stage workers (batching, state)', file: /lib\/runs\/|functions\/queues\// },
  { phase: 'API (run polling)', file: /lib\/api\// },
  { phase: 'host (invocation, timers)', file: /lib\/host\// },
];

export interface PhaseTimes {
  /** CPU ms per phase, plus 'garbage collection', 'idle' and 'other' */
  byPhase: Map<string, number>;
  totalMs: number;
}

/** Starts sampling (every `intervalUs` µs); the returned function stops it and returns the time per phase. */
export async function profilePhases(rules: readonly PhaseRule[] = RUN_PHASES, intervalUs = 5000): Promise<() => Promise<PhaseTimes>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return phaseTimesOf(profile, rules);
  };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Charges each sample's time to a phase (exported for its test). */
export function phaseTimesOf(
  profile: { nodes: ProfileNode[]; samples?: number[]; timeDeltas?: number[] },
  rules: readonly PhaseRule[],
): PhaseTimes {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const phaseOfNode = new Map<number, string>();
  const phaseOf = (id: number): string => {
    const known = phaseOfNode.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    let phase: string;
    if (name === '(garbage collector)') phase = 'garbage collection';
    else if (name === '(idle)') phase = 'idle';
    else {
      const rule = node.callFrame.url ? rules.find((r) => r.file.test(node.callFrame.url)) : undefined;
      const up = parent.get(id);
      phase = rule ? rule.phase : up === undefined ? 'other' : phaseOf(up);
    }
    phaseOfNode.set(id, phase);
    return phase;
  };
  const byPhase = new Map<string, number>();
  let totalUs = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const us = Math.max(0, deltas[i] ?? 0);
    totalUs += us;
    const phase = phaseOf(samples[i]!);
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + us / 1000);
  }
  return { byPhase, totalMs: totalUs / 1000 };
}

/** The table `bench:run` prints: phases by time spent, with their share of the sampled time. */
export function formatPhaseTimes(times: PhaseTimes, order: readonly PhaseRule[] = RUN_PHASES): string[] {
  const names = [...order.map((r) => r.phase), 'garbage collection', 'other', 'idle'];
  const width = Math.max(...names.map((n) => n.length));
  return names
    .filter((n) => (times.byPhase.get(n) ?? 0) > 0)
    .map((n) => {
      const ms = times.byPhase.get(n)!;
      return `  ${n.padEnd(width)}  ${(ms / 1000).toFixed(1).padStart(6)} s  ${((ms / times.totalMs) * 100).toFixed(1).padStart(5)}%`;
    });
}
