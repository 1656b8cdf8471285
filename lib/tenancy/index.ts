export { Ownership } from './ownership.js';
export { isPlatformOperator, organizationOfPrincipal, scopedServices, scopedStores, unscopedServicesOf } from './scopedServices.js';
export { runIdOfMessage } from './scopedPlatformPorts.js';
export { ScopedTestCaseStore } from './scopedTestCaseStore.js';
export { ensureDefaultOrganization } from './organizations.js';
export {
  BUDGET_ALERT_THRESHOLDS,
  BudgetLedger,
  budgetAlert,
  budgetAlertId,
  budgetedJudge,
  budgetLedgerFor,
  monthOf,
  monthToDateSpend,
  type BudgetLedgerOptions,
  type BudgetStatus,
} from './budget.js';
