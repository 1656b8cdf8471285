/**
 * State shared by the test app's functions and the tests (a module of its own: importing the app registers
 * functions, so tests must import it only through captureRegistrations).
 */
export const probe = {
  /** Runs per activity key ("<activity>:<input>"). */
  runs: new Map<string, number>(),
  /** How many times 'flaky' fails for a key before it succeeds. */
  flakyFailures: 2,
  /** Read by the 'flipFlop' orchestrator: changing it between episodes makes the orchestrator nondeterministic. */
  mode: 'A' as 'A' | 'B',
  /** Resolvers for 'gated' activities, in call order. */
  gates: [] as Array<() => void>,
};
