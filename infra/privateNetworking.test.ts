import { describe, expect, it } from 'vitest';
import {
  bicepFiles,
  declarationsOf,
  readText,
  resourceTypeOf,
  roleAssignments,
  textOf,
  valueAt,
  type BicepFile,
} from './infraFiles.test-helpers.js';
import type { Node } from './bicepText.js';

// The private-networking option (issue 20): off by default, one parameter turns it on, and then every service the
// app reaches gets a private endpoint with its privatelink DNS zone and no public network access, and the function
// app joins the virtual network. Checked on the Bicep text (the compiler and a deployment need Azure).

const files = bicepFiles();
const file = (path: string): BicepFile => files.find((f) => f.path === path) ?? expect.fail(`infra/${path} is missing`);
const main = file('main.bicep');
const app = file('app.bicep');
const decl = (f: BicepFile, keyword: 'param' | 'var' | 'module' | 'resource' | 'output', name: string) =>
  declarationsOf(f, keyword).find((d) => d.name === name) ?? expect.fail(`${f.path}: ${keyword} ${name} is missing`);
const entries = (node: Node | undefined): Array<Record<string, string>> =>
  node?.kind === 'array'
    ? node.items.map((item) => Object.fromEntries((item.kind === 'object' ? item.entries : []).map((e) => [e.key, textOf(e.value)])))
    : [];

/** The sub-resources (group ids) and privatelink zones each Azure service needs, from the Private Link documentation. */
const EXPECTED_LINKS: Record<string, { type: string; groupId: string; zone: string }> = {
  servicebus: { type: 'Microsoft.ServiceBus/namespaces', groupId: 'namespace', zone: 'privatelink.servicebus.windows.net' },
  cosmos: { type: 'Microsoft.DocumentDB/databaseAccounts', groupId: 'Sql', zone: 'privatelink.documents.azure.com' },
  blob: { type: 'Microsoft.Storage/storageAccounts', groupId: 'blob', zone: 'privatelink.blob.${environment().suffixes.storage}' },
  queue: { type: 'Microsoft.Storage/storageAccounts', groupId: 'queue', zone: 'privatelink.queue.${environment().suffixes.storage}' },
  table: { type: 'Microsoft.Storage/storageAccounts', groupId: 'table', zone: 'privatelink.table.${environment().suffixes.storage}' },
  search: { type: 'Microsoft.Search/searchServices', groupId: 'searchService', zone: 'privatelink.search.windows.net' },
  openai: { type: 'Microsoft.CognitiveServices/accounts', groupId: 'account', zone: 'privatelink.openai.azure.com' },
  keyvault: { type: 'Microsoft.KeyVault/vaults', groupId: 'vault', zone: 'privatelink.vaultcore.azure.net' },
};

/** The module of app.bicep an output reference (`cosmos.outputs.id`) points to, and the resource its `id` output is. */
function resourceBehind(reference: string): { module: string; type: string | undefined } {
  const [, moduleName, output] = /^(\w+)\.outputs\.(\w+)$/.exec(reference) ?? expect.fail(`not a module output: ${reference}`);
  const target = file(decl(app, 'module', moduleName!).type!);
  const symbol = textOf(decl(target, 'output', output!).value).replace(/\.id$/, '');
  return { module: target.path, type: resourceTypeOf(target, symbol) };
}

describe('infra: the private-networking option', () => {
  it('is one main.bicep parameter, off by default, passed to app.bicep and settable from the azd environment', () => {
    expect(textOf(decl(main, 'param', 'privateNetworking').value)).toBe('false');
    expect(decl(main, 'param', 'privateNetworking').type).toBe('bool');
    expect(textOf(valueAt(decl(main, 'module', 'platform').value, 'params.privateNetworking'))).toBe('privateNetworking');
    const parameters = JSON.parse(readText('main.parameters.json')).parameters;
    expect(parameters.privateNetworking.value).toBe('${EVALP_PRIVATE_NETWORKING=false}');
  });

  it('deploys the virtual network and the private endpoints only when it is on', () => {
    const network = decl(app, 'module', 'network');
    expect(network.value).toMatchObject({ kind: 'if', condition: 'privateNetworking' });
    const endpoints = decl(app, 'module', 'privateEndpoints');
    expect(endpoints.value?.kind).toBe('for');
    expect(endpoints.value?.kind === 'for' && endpoints.value.body).toMatchObject({ kind: 'if', condition: 'privateNetworking' });
    expect(textOf(decl(app, 'var', 'publicNetworkAccess').value)).toBe("privateNetworking ? 'Disabled' : 'Enabled'");
  });

  it('gives each service sub-resource the app reaches its private endpoint, group id and privatelink DNS zone', () => {
    const links = entries(decl(app, 'var', 'privateLinks').value);
    expect(Object.fromEntries(links.map((l) => [l.key!.replace(/'/g, ''), { groupId: l.groupId, zone: l.zone }]))).toEqual(
      Object.fromEntries(Object.entries(EXPECTED_LINKS).map(([key, e]) => [key, { groupId: `'${e.groupId}'`, zone: `'${e.zone}'` }])),
    );
    for (const [key, expected] of Object.entries(EXPECTED_LINKS)) {
      const reference = textOf(valueAt(decl(app, 'var', 'privateLinkServiceIds').value, key));
      expect(resourceBehind(reference).type, `${key} -> ${reference}`).toBe(expected.type);
    }
    const params = valueAt(decl(app, 'module', 'privateEndpoints').value, 'params');
    expect(textOf(valueAt(params, 'serviceId'))).toBe('privateLinkServiceIds[link.key]');
    expect(textOf(valueAt(params, 'groupId'))).toBe('link.groupId');
    expect(textOf(valueAt(params, 'dnsZoneName'))).toBe('link.zone');
    expect(textOf(valueAt(params, 'subnetId'))).toBe("privateNetworking ? network.outputs.privateEndpointSubnetId : ''");
  });

  it('leaves no resource the app identity is granted a role on without an endpoint (Application Insights ingestion excepted)', () => {
    const covered = new Set(Object.values(EXPECTED_LINKS).map((l) => l.type));
    const touched = new Set(roleAssignments(files).map((a) => a.scopeType!));
    touched.add('Microsoft.DocumentDB/databaseAccounts'); // its data-plane role is a sqlRoleAssignment
    expect([...touched].filter((type) => !covered.has(type))).toEqual(['Microsoft.Insights/components']);
  });

  it('turns public network access off on every service with an endpoint', () => {
    const resourceProperty: Record<string, string> = {
      'modules/serviceBus.bicep': 'namespace',
      'modules/cosmos.bicep': 'account',
      'modules/storage.bicep': 'storage',
      'modules/search.bicep': 'search',
      'modules/openai.bicep': 'account',
      'modules/keyVault.bicep': 'vault',
    };
    const moduleOf: Record<string, string> = {};
    for (const m of declarationsOf(app, 'module')) if (m.type) moduleOf[m.type] = m.name;
    for (const [path, symbol] of Object.entries(resourceProperty)) {
      const f = file(path);
      expect(textOf(decl(f, 'param', 'publicNetworkAccess').value), path).toBe("'Enabled'");
      const properties = textOf(valueAt(decl(f, 'resource', symbol).value, 'properties'));
      expect(properties, path).toMatch(/publicNetworkAccess: (toLower\()?publicNetworkAccess\)?/);
      const given = textOf(valueAt(decl(app, 'module', moduleOf[path]!).value, 'params.publicNetworkAccess'));
      expect(given, `app.bicep passes publicNetworkAccess to ${path}`).toBe('publicNetworkAccess');
    }
  });

  it('moves Service Bus to Premium, the tier that has private endpoints', () => {
    expect(textOf(decl(app, 'var', 'effectiveServiceBusSku').value)).toBe("privateNetworking ? 'Premium' : serviceBusSku");
    expect(textOf(valueAt(decl(app, 'module', 'serviceBus').value, 'params.sku'))).toBe('effectiveServiceBusSku');
  });

  it('puts the function app on the virtual network (Flex Consumption: a subnet delegated to Microsoft.App/environments)', () => {
    const functionApp = decl(app, 'module', 'functionApp');
    expect(textOf(valueAt(functionApp.value, 'params.virtualNetworkSubnetId'))).toBe(
      "privateNetworking ? network.outputs.appSubnetId : ''",
    );
    expect(textOf(valueAt(functionApp.value, 'dependsOn'))).toBe('[privateEndpoints]');
    const site = decl(file('modules/functionApp.bicep'), 'resource', 'app').value;
    expect(textOf(valueAt(site, 'properties.virtualNetworkSubnetId'))).toBe(
      'empty(virtualNetworkSubnetId) ? null : virtualNetworkSubnetId',
    );
    const subnets = valueAt(decl(file('modules/network.bicep'), 'resource', 'vnet').value, 'properties.subnets');
    const text = textOf(subnets);
    expect(text).toContain("name: 'app'");
    expect(text).toContain("serviceName: 'Microsoft.App/environments'");
    expect(text).toContain("name: 'private-endpoints'");
    expect(text).toContain("privateEndpointNetworkPolicies: 'Disabled'");
    const outputs = declarationsOf(file('modules/network.bicep'), 'output').map((o) => [o.name, textOf(o.value)]);
    expect(outputs).toEqual([
      ['id', 'vnet.id'],
      ['appSubnetId', 'vnet.properties.subnets[0].id'],
      ['privateEndpointSubnetId', 'vnet.properties.subnets[1].id'],
    ]);
  });

  it('each endpoint connects to its service and registers in its zone, linked to the virtual network', () => {
    const f = file('modules/privateEndpoint.bicep');
    const endpoint = decl(f, 'resource', 'endpoint').value;
    expect(textOf(valueAt(endpoint, 'properties.subnet'))).toBe('{ id: subnetId }');
    expect(textOf(valueAt(endpoint, 'properties.privateLinkServiceConnections'))).toContain(
      'properties: { privateLinkServiceId: serviceId, groupIds: [groupId] }',
    );
    const zoneGroup = declarationsOf(f, 'resource').find((d) => d.parent === 'endpoint');
    expect(resourceTypeOf(f, zoneGroup!.name)).toBe('Microsoft.Network/privateEndpoints/privateDnsZoneGroups');
    expect(textOf(valueAt(zoneGroup!.value, 'properties'))).toContain('privateDnsZoneId: zone.id');
    expect(textOf(valueAt(decl(f, 'resource', 'zone').value, 'name'))).toBe('dnsZoneName');
    expect(textOf(valueAt(decl(f, 'resource', 'zoneLink').value, 'properties.virtualNetwork'))).toBe('{ id: virtualNetworkId }');
  });
});
