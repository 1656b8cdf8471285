// Service Bus namespace and the platform's queues (platform.json: every queue the code uses), with duplicate
// detection (deterministic messageIds), maxDeliveryCount 10 and dead-lettering on expiry. Local (SAS) auth is off.
param name string
param location string
param tags object = {}
param principalId string
@allowed(['Standard', 'Premium'])
param sku string = 'Standard'
@minValue(1)
param messagingUnits int = 1
@allowed(['Enabled', 'Disabled'])
@description('Disabled with the private-networking option: reached through its private endpoint only')
param publicNetworkAccess string = 'Enabled'

var platform = loadJsonContent('../platform.json')
var roles = platform.roles

resource namespace 'Microsoft.ServiceBus/namespaces@2022-10-01-preview' = {
  name: name
  location: location
  tags: tags
  sku: sku == 'Premium' ? { name: 'Premium', tier: 'Premium', capacity: messagingUnits } : { name: 'Standard', tier: 'Standard' }
  properties: union({ disableLocalAuth: true, minimumTlsVersion: '1.2', publicNetworkAccess: publicNetworkAccess }, sku == 'Premium' ? { premiumMessagingPartitions: 1 } : {})
}

resource queues 'Microsoft.ServiceBus/namespaces/queues@2022-10-01-preview' = [for queue in platform.serviceBus.queues: {
  parent: namespace
  name: queue.name
  properties: {
    lockDuration: queue.lockDuration
    maxDeliveryCount: queue.maxDeliveryCount
    requiresDuplicateDetection: queue.requiresDuplicateDetection
    duplicateDetectionHistoryTimeWindow: queue.duplicateDetectionHistoryTimeWindow
    deadLetteringOnMessageExpiration: queue.deadLetteringOnMessageExpiration
    defaultMessageTimeToLive: queue.defaultMessageTimeToLive
    maxSizeInMegabytes: sku == 'Premium' ? 81920 : 5120
    enableBatchedOperations: true
  }
}]

resource dataSender 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(namespace.id, principalId, roles.serviceBusDataSender.id)
  scope: namespace
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.serviceBusDataSender.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

resource dataReceiver 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(namespace.id, principalId, roles.serviceBusDataReceiver.id)
  scope: namespace
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.serviceBusDataReceiver.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = namespace.name
output id string = namespace.id
output fullyQualifiedNamespace string = split(replace(namespace.properties.serviceBusEndpoint, 'https://', ''), ':')[0]
