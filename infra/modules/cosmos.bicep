// Cosmos DB for NoSQL: the database and every container of lib/adapters/azure/cosmosContainers.ts (via
// platform.json), created here because Entra ID data-plane roles cannot create containers (and the change-feed
// lease container must exist up front). Serverless by default (see the README for the argument).
param name string
param location string
param tags object = {}
param principalId string
@allowed(['serverless', 'autoscale'])
param capacityMode string = 'serverless'
@minValue(1000)
param autoscaleMaxThroughput int = 10000
@allowed(['Enabled', 'Disabled'])
@description('Disabled with the private-networking option: reached through its private endpoint only')
param publicNetworkAccess string = 'Enabled'

var platform = loadJsonContent('../platform.json')

resource account 'Microsoft.DocumentDB/databaseAccounts@2024-05-15' = {
  name: name
  location: location
  tags: tags
  kind: 'GlobalDocumentDB'
  properties: {
    databaseAccountOfferType: 'Standard'
    consistencyPolicy: { defaultConsistencyLevel: 'Session' }
    locations: [
      {
        locationName: location
        failoverPriority: 0
        isZoneRedundant: false
      }
    ]
    capabilities: capacityMode == 'serverless' ? [{ name: 'EnableServerless' }] : []
    disableLocalAuth: true
    minimalTlsVersion: 'Tls12'
    publicNetworkAccess: publicNetworkAccess
  }
}

resource database 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases@2024-05-15' = {
  parent: account
  name: platform.cosmos.databaseName
  properties: {
    resource: { id: platform.cosmos.databaseName }
    options: capacityMode == 'autoscale' ? { autoscaleSettings: { maxThroughput: autoscaleMaxThroughput } } : {}
  }
}

// A spec with more than one partition key path gets a hierarchical (MultiHash) key.
func partitionKeyOf(paths array) object => length(paths) > 1 ? { paths: paths, kind: 'MultiHash', version: 2 } : { paths: paths, kind: 'Hash', version: 2 }

// A spec that lists indexed paths gets only those (everything else excluded, as the adapter's queries need no more).
func indexingPolicyOf(spec object) object => contains(spec, 'indexedPaths') ? { indexingMode: 'consistent', automatic: true, includedPaths: map(spec.indexedPaths, path => { path: path }), excludedPaths: [{ path: '/*' }], compositeIndexes: contains(spec, 'compositeIndexes') ? spec.compositeIndexes : [] } : { indexingMode: 'consistent', automatic: true }

// TTL is on where the spec sets defaultTtl (-1: items expire only with their own ttl).
func ttlOf(spec object) object => contains(spec, 'defaultTtl') ? { defaultTtl: spec.defaultTtl } : {}

resource containers 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers@2024-05-15' = [for container in platform.cosmos.containers: {
  parent: database
  name: container.id
  properties: {
    resource: union({ id: container.id, partitionKey: partitionKeyOf(container.partitionKeyPaths), indexingPolicy: indexingPolicyOf(container) }, ttlOf(container))
  }
}]

// Cosmos DB Built-in Data Contributor: a data-plane role (sqlRoleAssignments), not an Azure RBAC role
resource dataContributor 'Microsoft.DocumentDB/databaseAccounts/sqlRoleAssignments@2024-05-15' = {
  parent: account
  name: guid(account.id, principalId, platform.cosmosDataRoles.builtInDataContributor.id)
  properties: {
    roleDefinitionId: '${account.id}/sqlRoleDefinitions/${platform.cosmosDataRoles.builtInDataContributor.id}'
    principalId: principalId
    scope: account.id
  }
}

output name string = account.name
output id string = account.id
output endpoint string = account.properties.documentEndpoint
