import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as functionSettings from '../functions/settings.js';
import { rolesFromClaim } from '../lib/api/entraId.js';
import { ROLES } from '../lib/domain/roles.js';
import { ROUTES } from '../lib/api/routeTable.js';
import { APP_SETTINGS } from '../lib/app/settings/appSettings.js';
import { captureRegistrations } from '../lib/host/capture.js';
import type { FunctionRegistration } from '../lib/host/registration.js';
import { keysOf } from './bicepText.js';
import {
  bicepFiles,
  declarationsOf,
  INFRA_DIR,
  readText,
  roleAssignments,
  ROOT_DIR,
  stringValue,
  textOf,
  valueAt,
  type BicepFile,
} from './infraFiles.test-helpers.js';
import { codeCosmosContainers, codeQueueNames } from './platformFacts.js';

// What can be checked here about infra/ (the Bicep compiler, what-if and a deployment need Azure: see
// .github/workflows/infra.yml): the facts the code dictates are in platform.json and the Bicep, every app setting
// the code reads is set (or deliberately not), nothing secret is set, every resource the code touches grants
// the app's identity its role, and the files reference each other consistently.

interface Queue {
  name: string;
  lockDuration: string;
  maxDeliveryCount: number;
  requiresDuplicateDetection: boolean;
  duplicateDetectionHistoryTimeWindow: string;
  deadLetteringOnMessageExpiration: boolean;
  defaultMessageTimeToLive: string;
}
interface Platform {
  serviceBus: { queueDefaults: Omit<Queue, 'name'>; queues: Queue[] };
  cosmos: { databaseName: string; containers: unknown[] };
  appSettings: { hostOnly: Record<string, string>; notSet: Record<string, string>; allowedConnectionStrings: Record<string, string> };
  roles: Record<string, { id: string; resourceType: string; why: string }>;
  cosmosDataRoles: Record<string, { id: string; why: string }>;
}

const platform = JSON.parse(readText('platform.json')) as Platform;
const files = bicepFiles();
const file = (path: string): BicepFile => files.find((f) => f.path === path) ?? expect.fail(`infra/${path} is missing`);
const app = file('app.bicep');
const appSettingsNode = declarationsOf(app, 'var').find((d) => d.name === 'appSettings')?.value;
const appSettings = new Map(keysOf(appSettingsNode).map((key) => [key, textOf(valueAt(appSettingsNode, key))]));
const azureSettings = Object.entries(APP_SETTINGS)
  .filter(([, spec]) => spec.scope !== 'embedded')
  .map(([name]) => name);

let registrations: FunctionRegistration[];
beforeAll(async () => {
  registrations = await captureRegistrations(() => import('../functions/index.js'));
});
const triggers = (type: string) => registrations.map((r) => r.trigger).filter((t) => t.type === type);

/** ISO-8601 durations as Service Bus takes them (days, hours, minutes, seconds). */
function isoSeconds(text: string): number {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) throw new Error(`not an ISO-8601 duration: ${text}`);
  return Number(m[1] ?? 0) * 86_400 + Number(m[2] ?? 0) * 3_600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0);
}

describe('infra: the files reference each other consistently', () => {
  it('every module exists, gets every required parameter and only declared ones, and its outputs exist', () => {
    for (const f of files) {
      for (const m of declarationsOf(f, 'module')) {
        const target = files.find((x) => join(x.path, '..', '..') && join(f.path, '..', m.type!) === x.path);
        expect(target, `${f.path}: module ${m.name} -> ${m.type}`).toBeDefined();
        const declared = declarationsOf(target!, 'param');
        const given = keysOf(valueAt(m.value, 'params'));
        expect(
          given.filter((p) => !declared.some((d) => d.name === p)),
          `${f.path}: unknown params of ${m.name}`,
        ).toEqual([]);
        expect(
          declared.filter((d) => d.value === undefined && !given.includes(d.name)).map((d) => d.name),
          `${f.path}: missing params of ${m.name}`,
        ).toEqual([]);
        const outputs = new Set(declarationsOf(target!, 'output').map((d) => d.name));
        for (const [, name] of f.text.matchAll(new RegExp(`\\b${m.name}\\.outputs\\.(\\w+)`, 'g')))
          expect(outputs, `${f.path}: ${m.name}.outputs.${name}`).toContain(name);
      }
    }
  });

  it('every platform.json path the Bicep reads exists', () => {
    for (const f of files) {
      for (const [, group, key] of f.text.matchAll(/\b(roles|cosmosDataRoles)\.(\w+)\.id\b/g)) {
        expect(platform[group as 'roles' | 'cosmosDataRoles'], `${f.path}: ${group}.${key}`).toHaveProperty(key!);
      }
      for (const [, path] of f.text.matchAll(/\bplatform\.((?:serviceBus|cosmos)\.\w+)/g)) {
        const [group, key] = path!.split('.') as ['serviceBus' | 'cosmos', string];
        expect(platform[group], `${f.path}: platform.${path}`).toHaveProperty(key);
      }
    }
  });

  it('main.parameters.json sets only parameters of main.bicep, and every one main.bicep requires', () => {
    const parameters = Object.keys((JSON.parse(readText('main.parameters.json')) as { parameters: Record<string, unknown> }).parameters);
    const declared = declarationsOf(file('main.bicep'), 'param');
    expect(parameters.filter((p) => !declared.some((d) => d.name === p))).toEqual([]);
    expect(
      declared
        .filter((d) => d.value === undefined)
        .map((d) => d.name)
        .sort(),
    ).toEqual(['apiAudience', 'environmentName', 'location']);
    for (const name of ['environmentName', 'location', 'apiAudience']) expect(parameters).toContain(name);
  });

  it('azure.yaml deploys this package as service api to a function host, and its hooks exist', () => {
    const yaml = readFileSync(join(ROOT_DIR, 'azure.yaml'), 'utf8');
    expect(yaml).toMatch(/\nservices:\n {2}api:\n {4}project: \.\n {4}language: ts\n {4}host: function\n/);
    expect(yaml).toMatch(/infra:\n {2}provider: bicep\n {2}path: infra\n {2}module: main\n/);
    expect(
      textOf(valueAt(declarationsOf(file('modules/functionApp.bicep'), 'resource').find((d) => d.name === 'app')?.value, 'tags')),
    ).toContain("'azd-service-name': 'api'");
    for (const [, script] of yaml.matchAll(/run: \.\/(infra\/hooks\/\S+)/g)) expect(existsSync(join(ROOT_DIR, script!)), script).toBe(true);
    expect(statSync(join(INFRA_DIR, 'hooks/postdeploy.sh')).mode & 0o111).not.toBe(0);
  });

  it('the workflow builds and lints infra/main.bicep with the Bicep CLI and runs these checks', () => {
    const workflow = readFileSync(join(ROOT_DIR, '.github/workflows/infra.yml'), 'utf8');
    expect(workflow).toContain('az bicep build --file infra/main.bicep');
    expect(workflow).toContain('az bicep lint --file "$file"');
    expect(workflow).toContain('for file in infra/main.bicep infra/app.bicep infra/modules/*.bicep');
    expect(workflow).toContain('npx vitest run infra');
  });
});

describe('infra: Service Bus queues', () => {
  it('declares exactly the queues the code uses (triggers and senders)', () => {
    const triggered = triggers('serviceBusTrigger').map((t) => String(t.queueName));
    expect(triggered.every((q) => codeQueueNames().includes(q))).toBe(true);
    expect(platform.serviceBus.queues.map((q) => q.name).sort()).toEqual(codeQueueNames());
  });

  it('each stage queue has a -high and a -low sibling (Service Bus has no message priority), each with its own trigger', () => {
    const triggered = new Set(triggers('serviceBusTrigger').map((t) => String(t.queueName)));
    const declared = new Set(platform.serviceBus.queues.map((q) => q.name));
    for (const stage of ['evaluate-cases', 'execute-cases', 'judge-cases']) {
      for (const name of [stage, `${stage}-high`, `${stage}-low`]) {
        expect(declared.has(name), `${name} in platform.json`).toBe(true);
        expect(triggered.has(name), `a trigger on ${name}`).toBe(true);
      }
    }
    // the sibling queues take the stage queue's settings (lock, deliveries, duplicate detection)
    const settingsOf = (name: string) => {
      const { name: _name, ...settings } = platform.serviceBus.queues.find((q) => q.name === name)!;
      return settings;
    };
    expect(settingsOf('judge-cases-high')).toEqual(settingsOf('judge-cases'));
    expect(settingsOf('evaluate-cases-low')).toEqual(settingsOf('evaluate-cases'));
  });

  it.each(platform.serviceBus.queues.map((q) => [q.name, q]))(
    '%s: duplicate detection, 10 deliveries, dead-lettering on expiry, a lock under 5 minutes',
    (_name, queue) => {
      expect(queue).toMatchObject({ requiresDuplicateDetection: true, maxDeliveryCount: 10, deadLetteringOnMessageExpiration: true });
      const window = isoSeconds(queue.duplicateDetectionHistoryTimeWindow);
      expect(window).toBeGreaterThanOrEqual(20);
      expect(window).toBeLessThanOrEqual(7 * 86_400);
      expect(isoSeconds(queue.lockDuration)).toBeLessThanOrEqual(300);
      expect(isoSeconds(queue.defaultMessageTimeToLive)).toBeGreaterThan(window);
    },
  );

  it('serviceBus.bicep creates one queue per platform.json entry with every setting from it, on a namespace without SAS keys', () => {
    const sb = file('modules/serviceBus.bicep');
    const queues = declarationsOf(sb, 'resource').find((d) => d.type?.startsWith('Microsoft.ServiceBus/namespaces/queues@'));
    expect(queues?.value).toMatchObject({ kind: 'for', header: 'queue in platform.serviceBus.queues' });
    for (const key of Object.keys(platform.serviceBus.queueDefaults))
      expect(textOf(valueAt(queues?.value, `properties.${key}`)), key).toBe(`queue.${key}`);
    expect(textOf(valueAt(declarationsOf(sb, 'resource').find((d) => d.name === 'namespace')?.value, 'properties'))).toContain(
      'disableLocalAuth: true',
    );
  });

  it('the triggers use the identity-based connection the app settings define', () => {
    for (const t of triggers('serviceBusTrigger')) expect(t.connection).toBe(functionSettings.SERVICE_BUS_CONNECTION);
  });
});

describe('infra: Cosmos DB containers', () => {
  it('platform.json declares exactly the containers of lib/adapters/azure/cosmosContainers.ts (run `npx tsx infra/syncPlatform.ts`)', () => {
    expect(platform.cosmos.containers).toEqual(codeCosmosContainers());
  });

  it('the change-feed triggers watch declared containers, with a lease container partitioned on /id', () => {
    const containers = codeCosmosContainers();
    for (const t of triggers('cosmosDBTrigger')) {
      expect(containers.map((c) => c.id)).toContain(t.containerName);
      expect(containers.find((c) => c.id === (t.leaseContainerName ?? 'leases'))?.partitionKeyPaths).toEqual(['/id']);
      expect(t.createLeaseContainerIfNotExists).toBe(false);
      expect(t.databaseName).toBe('%COSMOS_DATABASE_NAME%');
    }
    expect(appSettings.get('COSMOS_DATABASE_NAME')).toBe('platform.cosmos.databaseName');
  });

  it('cosmos.bicep creates every container from platform.json with its partition key, indexing and TTL, on an account without keys', () => {
    const cosmos = file('modules/cosmos.bicep');
    const containers = declarationsOf(cosmos, 'resource').find((d) =>
      d.type?.startsWith('Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@'),
    );
    expect(containers?.value).toMatchObject({ kind: 'for', header: 'container in platform.cosmos.containers' });
    expect(textOf(valueAt(containers?.value, 'properties.resource'))).toBe(
      'union({ id: container.id, partitionKey: partitionKeyOf(container.partitionKeyPaths), indexingPolicy: indexingPolicyOf(container) }, ttlOf(container))',
    );
    expect(cosmos.text).toContain(
      "func partitionKeyOf(paths array) object => length(paths) > 1 ? { paths: paths, kind: 'MultiHash', version: 2 } : { paths: paths, kind: 'Hash', version: 2 }",
    );
    expect(cosmos.text).toContain("includedPaths: map(spec.indexedPaths, path => { path: path }), excludedPaths: [{ path: '/*' }]");
    expect(cosmos.text).toContain("func ttlOf(spec object) object => contains(spec, 'defaultTtl') ? { defaultTtl: spec.defaultTtl } : {}");
    expect(
      textOf(valueAt(declarationsOf(cosmos, 'resource').find((d) => d.name === 'account')?.value, 'properties.disableLocalAuth')),
    ).toBe('true');
  });
});

describe('infra: app settings', () => {
  it('sets or deliberately leaves out every setting the code reads in Azure (lib/app/settings/appSettings.ts)', () => {
    const unclassified = azureSettings.filter((name) => !appSettings.has(name) && !(name in platform.appSettings.notSet));
    expect(unclassified, 'add them to app.bicep appSettings or to platform.json appSettings.notSet with a reason').toEqual([]);
  });

  it('sets nothing unknown to the code or the host, and nothing it says it leaves out', () => {
    const known = new Set([...Object.keys(APP_SETTINGS), ...Object.keys(platform.appSettings.hostOnly)]);
    expect([...appSettings.keys()].filter((name) => !known.has(name))).toEqual([]);
    expect([...appSettings.keys()].filter((name) => name in platform.appSettings.notSet)).toEqual([]);
    expect(Object.keys(platform.appSettings.notSet).filter((name) => !(name in APP_SETTINGS))).toEqual([]);
  });

  it.each([
    ...Object.entries(functionSettings)
      .filter(([key]) => key.endsWith('_CONNECTION'))
      .map(([, connection]) => connection as string),
    'AzureWebJobsStorage',
  ])('the %s connection is identity-based: endpoint, managedidentity, the user-assigned client id', (connection) => {
    const endpoint = ['fullyQualifiedNamespace', 'accountEndpoint', 'accountName'].filter((suffix) =>
      appSettings.has(`${connection}__${suffix}`),
    );
    expect(endpoint).toHaveLength(1);
    expect(appSettings.get(`${connection}__credential`)).toBe("'managedidentity'");
    expect(appSettings.get(`${connection}__clientId`)).toBe('identity.outputs.clientId');
    expect(appSettings.has(connection)).toBe(false);
  });

  it('defines every %setting% the function bindings reference', () => {
    const referenced = new Set(
      registrations.flatMap((r) => [...JSON.stringify(r.metadata.bindings).matchAll(/%([A-Za-z0-9_]+)%/g)].map((m) => m[1]!)),
    );
    expect(referenced.size).toBeGreaterThan(0);
    for (const name of referenced) expect(appSettings.has(name), name).toBe(true);
    const hostJson = join(ROOT_DIR, 'host.json');
    if (existsSync(hostJson))
      for (const [, name] of readFileSync(hostJson, 'utf8').matchAll(/%([A-Za-z0-9_]+)%/g))
        expect(appSettings.has(name!), `host.json %${name}%`).toBe(true);
  });

  it('holds no key, secret or connection string (the one connection string allowed is not a credential)', () => {
    const secretName = /(KEY|SECRET|PASSWORD|TOKEN|SAS|CONNECTION_?STRING)$/i;
    const secretValue =
      /listKeys|listConnectionStrings|listCredentials|listAccountSas|listServiceSas|primaryKey|secondaryKey|AccountKey=|SharedAccessKey|Password=|connectionString\(/i;
    for (const [name, value] of appSettings) {
      if (name in platform.appSettings.allowedConnectionStrings) continue;
      expect(name, `${name} looks like a secret`).not.toMatch(secretName);
      expect(value, `${name} = ${value}`).not.toMatch(secretValue);
    }
    expect(appSettings.get('APPLICATIONINSIGHTS_CONNECTION_STRING')).toBe('monitoring.outputs.connectionString');
    expect(appSettings.get('APPLICATIONINSIGHTS_AUTHENTICATION_STRING')).toBe("'ClientId=${identity.outputs.clientId};Authorization=AAD'");
    for (const f of files)
      expect(f.text, f.path).not.toMatch(/\blist(Keys|ConnectionStrings|Credentials|AccountSas|ServiceSas)\(|@secure\(\)/);
  });

  it('turns local (key) auth off wherever the app authenticates with Entra ID', () => {
    const resourceProps = (path: string, symbol: string) =>
      textOf(valueAt(declarationsOf(file(path), 'resource').find((d) => d.name === symbol)?.value, 'properties'));
    expect(resourceProps('modules/storage.bicep', 'storage')).toContain('allowSharedKeyAccess: false');
    expect(resourceProps('modules/search.bicep', 'search')).toContain('disableLocalAuth: true');
    expect(resourceProps('modules/openai.bicep', 'account')).toContain('disableLocalAuth: true');
    expect(resourceProps('modules/monitoring.bicep', 'appInsights')).toContain('DisableLocalAuth: true');
    expect(resourceProps('modules/keyVault.bicep', 'vault')).toContain('enableRbacAuthorization: true');
  });
});

describe('infra: roles of the app identity', () => {
  const assignments = roleAssignments(files);

  it.each(Object.entries(platform.roles).map(([key, role]) => [key, role.resourceType, role] as const))(
    '%s is granted on the %s resource only',
    (key, _type, role) => {
      const granted = assignments.filter((a) => a.role === key);
      expect(granted.map((a) => a.scopeType)).toEqual([role.resourceType]);
    },
  );

  it('every assignment is a platform.json role, to the service principal, with a deterministic name', () => {
    for (const a of assignments) {
      expect(Object.keys(platform.roles), `${a.file} ${a.symbol}`).toContain(a.role);
      expect(a.principalType).toBe("'ServicePrincipal'");
      expect(a.name).toMatch(/^guid\(\w+\.id, principalId, roles\.\w+\.id\)$/);
    }
  });

  it('covers every resource type the code touches, and Cosmos DB through its data-plane role', () => {
    expect(new Set(assignments.map((a) => a.scopeType))).toEqual(
      new Set([
        'Microsoft.Storage/storageAccounts',
        'Microsoft.ServiceBus/namespaces',
        'Microsoft.Search/searchServices',
        'Microsoft.CognitiveServices/accounts',
        'Microsoft.KeyVault/vaults',
        'Microsoft.Insights/components',
      ]),
    );
    const cosmos = file('modules/cosmos.bicep');
    const sql = declarationsOf(cosmos, 'resource').find((d) =>
      d.type?.startsWith('Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@'),
    );
    expect(textOf(valueAt(sql?.value, 'properties.roleDefinitionId'))).toBe(
      "'${account.id}/sqlRoleDefinitions/${platform.cosmosDataRoles.builtInDataContributor.id}'",
    );
    expect(platform.cosmosDataRoles.builtInDataContributor?.id).toBe('00000000-0000-0000-0000-000000000002');
    expect(textOf(valueAt(sql?.value, 'properties.scope'))).toBe('account.id');
  });

  it('Service Bus gets sender and receiver, never owner (manage) rights', () => {
    expect(
      assignments
        .filter((a) => a.scopeType === 'Microsoft.ServiceBus/namespaces')
        .map((a) => a.role)
        .sort(),
    ).toEqual(['serviceBusDataReceiver', 'serviceBusDataSender']);
    expect(JSON.stringify(platform.roles)).not.toContain('090c5cfd-751d-490a-894a-3ce6f1109419');
  });
});

describe('infra: function app, API Management and Entra ID', () => {
  it('runs on Flex Consumption (FC1), Node 22 (the Azure SDKs it loads require it), as the user-assigned identity, with the package in blob storage', () => {
    const f = file('modules/functionApp.bicep');
    const resources = declarationsOf(f, 'resource');
    expect(textOf(valueAt(resources.find((d) => d.name === 'plan')?.value, 'sku'))).toBe("{ name: 'FC1', tier: 'FlexConsumption' }");
    const site = resources.find((d) => d.name === 'app')?.value;
    expect(textOf(valueAt(site, 'properties.functionAppConfig.runtime'))).toBe("{ name: 'node', version: '22' }");
    expect(textOf(valueAt(site, 'identity.type'))).toBe("'UserAssigned'");
    expect(textOf(valueAt(site, 'properties.functionAppConfig.deployment.storage.authentication'))).toBe(
      "{ type: 'UserAssignedIdentity', userAssignedIdentityResourceId: identityId }",
    );
    expect(JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')).engines.node).toMatch(/^>=20/);
  });

  it('API Management validates Entra ID tokens on every operation except exactly the anonymous routes', () => {
    const policy = readText('modules/apimPolicy.xml');
    const exempt = [...policy.matchAll(/EndsWith\(&quot;([^&]+)&quot;\)/g)].map((m) => m[1]).sort();
    const anonymous = ROUTES.filter((r) => r.role === 'anonymous')
      .map((r) => `/api/${r.path}`)
      .sort();
    expect(exempt).toEqual(anonymous);
    expect(policy).toMatch(/<validate-jwt header-name="Authorization" require-scheme="Bearer" failed-validation-httpcode="401"/);
    expect(policy).toContain('<openid-config url="https://login.microsoftonline.com/{tenantId}/v2.0/.well-known/openid-configuration" />');
    expect(policy).toContain('<audience>{audience}</audience>');
    const apim = file('modules/apim.bicep');
    expect(apim.text).toContain("replace(replace(loadTextContent('apimPolicy.xml'), '{tenantId}', tenantId), '{audience}', audience)");
    expect(apim.text).toContain("format: 'openapi+json-link'");
    expect(ROUTES.find((r) => r.path === 'openapi.json')?.role).toBe('anonymous');
  });

  it('the app trusts the same tenant and audience as API Management', () => {
    expect(appSettings.get('EVALP_AUTH_ENTRA_TENANT_ID')).toBe('apiTenantId');
    expect(appSettings.get('EVALP_AUTH_ENTRA_AUDIENCE')).toBe('apiAudience');
    const apimModule = declarationsOf(app, 'module').find((m) => m.name === 'apim');
    expect([textOf(valueAt(apimModule?.value, 'params.tenantId')), textOf(valueAt(apimModule?.value, 'params.audience'))]).toEqual([
      'apiTenantId',
      'apiAudience',
    ]);
  });

  it('the app registration roles (infra/appRoles.json) map one to one onto the platform roles', () => {
    const appRoles = JSON.parse(readText('appRoles.json')) as Array<{ value: string; allowedMemberTypes: string[] }>;
    expect(
      appRoles
        .map((r) => rolesFromClaim([r.value]))
        .flat()
        .sort(),
    ).toEqual([...ROLES].sort());
    for (const r of appRoles) expect(r.allowedMemberTypes).toEqual(['User', 'Application']);
  });

  it('the judge and embeddings deployments the settings name are the ones openai.bicep creates', () => {
    expect(appSettings.get('AZURE_OPENAI_DEPLOYMENT')).toBe('openAi.outputs.judgeDeployment');
    expect(appSettings.get('AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT')).toBe('openAi.outputs.embeddingsDeployment');
    expect(appSettings.get('EVALP_EMBEDDINGS_DIMENSIONS')).toBe('string(embeddingsModel.dimensions)');
    expect(stringValue(valueAt(declarationsOf(file('main.bicep'), 'param').find((p) => p.name === 'embeddingsModel')?.value, 'name'))).toBe(
      'text-embedding-3-small',
    );
  });
});
