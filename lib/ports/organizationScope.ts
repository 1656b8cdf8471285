/**
 * The organization a list is restricted to. Stores apply it in their query (SQL / Cosmos SQL), a missing field
 * counting as `default`, so pages and totals stay exact. Only the organization-scoped stores (lib/tenancy) set it;
 * an unscoped call (workers, housekeeping) sees every organization.
 */
export interface OrganizationScope {
  organization?: string;
}
