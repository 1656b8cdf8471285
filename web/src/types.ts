// The API's shapes, from the platform's own zod schemas (type-only imports: nothing of lib/ is bundled).
export type {
  Alert,
  Comparison,
  PairComparison,
  FlippedCase,
  Run,
  RunStats,
  TestCase,
  ToolCall,
  TargetSystem,
  Client,
} from '../../lib/domain/index.js';
export type { FailureView } from '../../lib/api/routes/runFailures.js';
export type { RunHeadline } from '../../lib/runs/trends/runHeadline.js';
export type { TrendSeries, TrendPoint } from '../../lib/runs/trends/runTrends.js';
export type { Role } from '../../lib/domain/roles.js';

export interface Page<T> {
  items: T[];
  total: number;
  has_more: boolean;
  limit: number;
  offset: number;
}

export interface Me {
  id: string;
  name: string;
  kind: 'api-key' | 'entra-id';
  roles: import('../../lib/domain/roles.js').Role[];
}

export interface FieldError {
  path: string;
  message: string;
}
