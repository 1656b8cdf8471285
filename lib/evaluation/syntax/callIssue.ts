import type { ErrorCode } from '../../domain/index.js';

/** One way a parsed call breaks the tool catalog. */
export interface CallIssue {
  /** index of the call in the parsed list */
  call_index: number;
  tool_name: string;
  /** JSON pointer inside the call's arguments (`''` for the call as a whole, e.g. an unknown tool) */
  path: string;
  /** unknown_tool | missing_required_argument | wrong_argument_type | enum_violation | schema_violation */
  error_code: ErrorCode;
  /** `get_orders: argument /limit must be integer, got string "ten"` */
  message: string;
  /** what the schema wanted, for wrong_argument_type (`types`) and enum_violation (`allowed`) */
  expected?: { types?: string[]; allowed?: unknown[] };
}
