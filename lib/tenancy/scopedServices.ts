import { DEFAULT_ORGANIZATION, type Principal } from '../domain/index.js';
import type { Services, Stores } from '../ports/index.js';
import { Ownership } from './ownership.js';
import { ScopedEntityStore } from './scopedEntityStore.js';
import { ScopedOrganizationStore } from './scopedOrganizationStore.js';
import { ScopedApiKeyStore, ScopedDeadLetters } from './scopedPlatformPorts.js';
import { ScopedAnnotationStore, ScopedAuditStore, ScopedSuiteVersionStore } from './scopedRecordStores.js';
import { ScopedRunStatsStore, ScopedRunStore, ScopedScorecardStore } from './scopedRunStores.js';
import { ScopedTestCaseStore } from './scopedTestCaseStore.js';
import { ScopedFeedbackStore } from './scopedFeedbackStore.js';
import { ScopedAlertStore } from './scopedAlertStore.js';

/**
 * Every store seen by one organization. Each store of `Stores` is wrapped here (a new store in the port that is
 * not wrapped does not compile: the object is typed `Stores`), so a route cannot reach another organization's data
 * by forgetting a filter: the organization is applied once, in the wrapper, and carried into the adapters' queries.
 */
export function scopedStores(stores: Stores, organization: string): Stores {
  const scope = new Ownership(organization);
  const runs = new ScopedRunStore(stores.runs, scope);
  const suites = new ScopedEntityStore(stores.suites, scope, 'suite');
  return {
    testCases: new ScopedTestCaseStore(stores.testCases, scope),
    suites,
    catalogs: new ScopedEntityStore(stores.catalogs, scope, 'tool catalog'),
    targets: new ScopedEntityStore(stores.targets, scope, 'target'),
    clients: new ScopedEntityStore(stores.clients, scope, 'client'),
    runs,
    scorecards: new ScopedScorecardStore(stores.scorecards, runs),
    runStats: new ScopedRunStatsStore(stores.runStats, runs),
    alerts: new ScopedAlertStore(stores.alerts, scope, runs),
    audit: new ScopedAuditStore(stores.audit, scope),
    annotations: new ScopedAnnotationStore(stores.annotations, suites, runs),
    suiteVersions: new ScopedSuiteVersionStore(stores.suiteVersions, suites),
    calibrations: new ScopedEntityStore(stores.calibrations, scope, 'judge calibration'),
    pairwiseVerdicts: new ScopedEntityStore(stores.pairwiseVerdicts, scope, 'pairwise verdict'),
    experiments: new ScopedEntityStore(stores.experiments, scope, 'experiment'),
    organizations: new ScopedOrganizationStore(stores.organizations, scope),
    feedback: new ScopedFeedbackStore(stores.feedback, scope),
    benchmarks: new ScopedEntityStore(stores.benchmarks, scope, 'benchmark'),
    benchmarkRuns: new ScopedEntityStore(stores.benchmarkRuns, scope, 'benchmark run'),
    cleanedJobs: new ScopedEntityStore(stores.cleanedJobs, scope, 'evaluate job'),
  };
}

const byServices = new WeakMap<Services, Map<string, Services>>();
const unscoped = new WeakMap<Services, Services>();

/**
 * The services one organization's requests run with: its scoped stores, API keys and dead letters; everything
 * else (queues, invokers, judges, clock) shared. Built once per (services, organization) and reused, so caches keyed
 * by the services or their stores keep working.
 */
export function scopedServices(services: Services, organization: string): Services {
  const base = unscoped.get(services) ?? services;
  let perOrg = byServices.get(base);
  if (!perOrg) byServices.set(base, (perOrg = new Map()));
  const cached = perOrg.get(organization);
  if (cached) return cached;
  const stores = scopedStores(base.stores, organization);
  const scope = new Ownership(organization);
  const scoped: Services = {
    ...base,
    stores,
    apiKeys: new ScopedApiKeyStore(base.apiKeys, scope),
    deadLetters: new ScopedDeadLetters(base.deadLetters, scope, stores.runs as ScopedRunStore),
  };
  perOrg.set(organization, scoped);
  unscoped.set(scoped, base);
  return scoped;
}

/**
 * The unscoped services behind scoped ones (the same object when not scoped). Only for what crosses organizations
 * on purpose: the platform operator's organization and key administration, authentication.
 */
export function unscopedServicesOf(services: Services): Services {
  return unscoped.get(services) ?? services;
}

/** The organization a principal acts in (absent: `default`). */
export function organizationOfPrincipal(principal: Principal | undefined): string {
  return principal?.organization ?? DEFAULT_ORGANIZATION;
}

/**
 * The platform operator: a `platform-admin` of the `default` organization. Only it creates organizations and keys
 * for other organizations; every other caller, whatever its roles, stays inside its own organization.
 */
export function isPlatformOperator(principal: Principal | undefined): boolean {
  return (
    principal !== undefined && organizationOfPrincipal(principal) === DEFAULT_ORGANIZATION && principal.roles.includes('platform-admin')
  );
}
