// Azure AI Search for the gold-set index (full-text and vector near-duplicates). Keys are off: the app uses
// Search Index Data Contributor for documents and Search Service Contributor to create or update the index.
param name string
param location string
param tags object = {}
param principalId string
@allowed(['basic', 'standard'])
param sku string = 'basic'
@allowed(['Enabled', 'Disabled'])
@description('Disabled with the private-networking option: reached through its private endpoint only')
param publicNetworkAccess string = 'Enabled'

var roles = loadJsonContent('../platform.json').roles

resource search 'Microsoft.Search/searchServices@2023-11-01' = {
  name: name
  location: location
  tags: tags
  sku: { name: sku }
  properties: {
    replicaCount: 1
    partitionCount: 1
    hostingMode: 'default'
    disableLocalAuth: true
    publicNetworkAccess: toLower(publicNetworkAccess)
  }
}

resource indexDataContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(search.id, principalId, roles.searchIndexDataContributor.id)
  scope: search
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.searchIndexDataContributor.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

resource serviceContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(search.id, principalId, roles.searchServiceContributor.id)
  scope: search
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.searchServiceContributor.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = search.name
output id string = search.id
output endpoint string = 'https://${search.name}.search.windows.net'
