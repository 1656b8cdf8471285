// The function app's storage: the deployment package (Flex Consumption), host locks and timers, and the Durable
// Functions task hub (blobs, queues, tables). Shared keys are off: the app reaches it with its identity only.
param name string
param location string
param tags object = {}
param principalId string
param deploymentContainerName string = 'app-package'
@description('The container of the analytics export (completed runs as Parquet, docs/analytics-export.md); empty: none')
param analyticsContainerName string = 'analytics'
@allowed(['Enabled', 'Disabled'])
@description('Disabled with the private-networking option: reached through its private endpoint only')
param publicNetworkAccess string = 'Enabled'

var roles = loadJsonContent('../platform.json').roles

resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: { name: 'Standard_LRS' }
  properties: {
    allowSharedKeyAccess: false
    allowBlobPublicAccess: false
    defaultToOAuthAuthentication: true
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    publicNetworkAccess: publicNetworkAccess
    networkAcls: { defaultAction: publicNetworkAccess == 'Enabled' ? 'Allow' : 'Deny', bypass: 'AzureServices' }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: storage
  name: 'default'
}

resource packages 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: deploymentContainerName
}

// completed runs as Parquet tables (functions/queues/analyticsExport.ts); the app writes it with blobOwner below
resource analytics 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = if (!empty(analyticsContainerName)) {
  parent: blobService
  name: empty(analyticsContainerName) ? 'unused' : analyticsContainerName
}

resource blobOwner 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, principalId, roles.storageBlobDataOwner.id)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.storageBlobDataOwner.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

resource queueContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, principalId, roles.storageQueueDataContributor.id)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.storageQueueDataContributor.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

resource tableContributor 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(storage.id, principalId, roles.storageTableDataContributor.id)
  scope: storage
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.storageTableDataContributor.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = storage.name
output id string = storage.id
output blobEndpoint string = storage.properties.primaryEndpoints.blob
output deploymentContainerName string = packages.name
output analyticsContainerName string = analyticsContainerName
