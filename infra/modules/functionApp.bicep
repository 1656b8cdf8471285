// The function app on Flex Consumption (FC1): Node 20, the deployment package in blob storage reached with the
// user-assigned identity, per-function scaling up to maximumInstanceCount. App settings come from app.bicep.
param name string
param planName string
param location string
param tags object = {}
param identityId string
param storageBlobEndpoint string
param deploymentContainerName string
@minValue(1)
@maxValue(1000)
param maximumInstanceCount int = 100
@allowed([512, 2048, 4096])
param instanceMemoryMB int = 2048
param appSettings object
@description('Subnet the app joins for outbound traffic (VNet integration), empty for none')
param virtualNetworkSubnetId string = ''

resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: { name: 'FC1', tier: 'FlexConsumption' }
  properties: { reserved: true }
}

resource app 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  tags: union(tags, { 'azd-service-name': 'api' })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    virtualNetworkSubnetId: empty(virtualNetworkSubnetId) ? null : virtualNetworkSubnetId
    siteConfig: { minTlsVersion: '1.2' }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: '${storageBlobEndpoint}${deploymentContainerName}'
          authentication: { type: 'UserAssignedIdentity', userAssignedIdentityResourceId: identityId }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        instanceMemoryMB: instanceMemoryMB
      }
      runtime: { name: 'node', version: '22' }
    }
  }

  resource settings 'config' = {
    name: 'appsettings'
    properties: appSettings
  }
}

output name string = app.name
output url string = 'https://${app.properties.defaultHostName}'
