/** The scorers of evaluation jobs (`/api/evaluate`), in the order they are reported. */
export const COMPAT_SCORER_NAMES = [
  'syntax',
  'logic',
  'execution',
  'semantics',
  'agent_routing',
  'routing_reason',
  'numerical_accuracy',
  'data_methodology',
] as const;
export type CompatScorerName = (typeof COMPAT_SCORER_NAMES)[number];

/** Required unless the request names its own: the endpoint answered readably, and the answer is right. */
export const DEFAULT_REQUIRED_SCORERS = ['syntax', 'semantics'] as const satisfies readonly CompatScorerName[];
