// The resource-group part of main.bicep: every resource, the identity the function app runs as, its roles (granted
// in each resource's module, on that resource only) and the app settings, all identity-based: no key, secret or
// connection string (infra.test.ts checks that, and that every setting the code reads is set or deliberately not).
param location string
param tags object
param resourceToken string
param apiAudience string
param apiTenantId string
param allowApiKeys bool
param serviceBusSku string
param serviceBusMessagingUnits int
param cosmosCapacityMode string
param cosmosAutoscaleMaxThroughput int
param functionMaximumInstanceCount int
param functionInstanceMemoryMB int
param scorecardTtlDays int
param evaluateJobRetentionDays int
param analyticsExport bool
param tracesSamplingRatio string
param judgeModel object
param embeddingsModel object
param searchSku string
param apimSku string
param apimPublisherEmail string
param apiSpecificationUrl string
param privateNetworking bool
param virtualNetworkAddressPrefix string
param emailEndpoint string
param emailSender string

var platform = loadJsonContent('platform.json')
var functionAppName = 'func-${resourceToken}'
var apimName = 'apim-${resourceToken}'
// private networking: the services are reached through private endpoints only (public network access off) and the
// function app's outbound traffic goes through the virtual network; Service Bus private endpoints need Premium
var publicNetworkAccess = privateNetworking ? 'Disabled' : 'Enabled'
var effectiveServiceBusSku = privateNetworking ? 'Premium' : serviceBusSku

module identity 'modules/identity.bicep' = {
  name: 'identity'
  params: { name: 'id-${resourceToken}', location: location, tags: tags }
}

module monitoring 'modules/monitoring.bicep' = {
  name: 'monitoring'
  params: { logAnalyticsName: 'log-${resourceToken}', appInsightsName: 'appi-${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId }
}

// the portal's view of the platform: workbook and alert rules (dead letters, failed runs, missed nightly runs)
module observability 'modules/observability.bicep' = {
  name: 'observability'
  params: { location: location, tags: tags, appInsightsId: monitoring.outputs.id, serviceBusNamespaceId: serviceBus.outputs.id }
}

module storage 'modules/storage.bicep' = {
  name: 'storage'
  params: { name: 'st${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId, publicNetworkAccess: publicNetworkAccess, analyticsContainerName: analyticsExport ? 'analytics' : '' }
}

module serviceBus 'modules/serviceBus.bicep' = {
  name: 'serviceBus'
  params: { name: 'sb-${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId, sku: effectiveServiceBusSku, messagingUnits: serviceBusMessagingUnits, publicNetworkAccess: publicNetworkAccess }
}

module cosmos 'modules/cosmos.bicep' = {
  name: 'cosmos'
  params: { name: 'cosmos-${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId, capacityMode: cosmosCapacityMode, autoscaleMaxThroughput: cosmosAutoscaleMaxThroughput, publicNetworkAccess: publicNetworkAccess }
}

module search 'modules/search.bicep' = {
  name: 'search'
  params: { name: 'srch-${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId, sku: searchSku, publicNetworkAccess: publicNetworkAccess }
}

module openAi 'modules/openai.bicep' = {
  name: 'openai'
  params: { name: 'oai-${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId, judgeModel: judgeModel, embeddingsModel: embeddingsModel, publicNetworkAccess: publicNetworkAccess }
}

module keyVault 'modules/keyVault.bicep' = {
  name: 'keyVault'
  params: { name: 'kv-${resourceToken}', location: location, tags: tags, principalId: identity.outputs.principalId, publicNetworkAccess: publicNetworkAccess }
}

module network 'modules/network.bicep' = if (privateNetworking) {
  name: 'network'
  params: { name: 'vnet-${resourceToken}', location: location, tags: tags, addressPrefix: virtualNetworkAddressPrefix }
}

// one private endpoint (and privatelink DNS zone) per service sub-resource the app reaches: Durable Functions and
// the host use blob, queue and table storage
var privateLinks = [
  { key: 'servicebus', groupId: 'namespace', zone: 'privatelink.servicebus.windows.net' }
  { key: 'cosmos', groupId: 'Sql', zone: 'privatelink.documents.azure.com' }
  { key: 'blob', groupId: 'blob', zone: 'privatelink.blob.${environment().suffixes.storage}' }
  { key: 'queue', groupId: 'queue', zone: 'privatelink.queue.${environment().suffixes.storage}' }
  { key: 'table', groupId: 'table', zone: 'privatelink.table.${environment().suffixes.storage}' }
  { key: 'search', groupId: 'searchService', zone: 'privatelink.search.windows.net' }
  { key: 'openai', groupId: 'account', zone: 'privatelink.openai.azure.com' }
  { key: 'keyvault', groupId: 'vault', zone: 'privatelink.vaultcore.azure.net' }
]
var privateLinkServiceIds = {
  servicebus: serviceBus.outputs.id
  cosmos: cosmos.outputs.id
  blob: storage.outputs.id
  queue: storage.outputs.id
  table: storage.outputs.id
  search: search.outputs.id
  openai: openAi.outputs.id
  keyvault: keyVault.outputs.id
}

module privateEndpoints 'modules/privateEndpoint.bicep' = [for link in privateLinks: if (privateNetworking) {
  name: 'pe-${link.key}'
  params: {
    name: 'pe-${link.key}-${resourceToken}'
    location: location
    tags: tags
    serviceId: privateLinkServiceIds[link.key]
    groupId: link.groupId
    dnsZoneName: link.zone
    virtualNetworkId: privateNetworking ? network.outputs.id : ''
    subnetId: privateNetworking ? network.outputs.privateEndpointSubnetId : ''
  }
}]

// Every app setting the code reads in Azure (lib/app/settings/appSettings.ts), identity-based.
var appSettings = {
  EVALP_BACKEND: 'azure'
  AZURE_CLIENT_ID: identity.outputs.clientId
  AzureWebJobsStorage__accountName: storage.outputs.name
  AzureWebJobsStorage__credential: 'managedidentity'
  AzureWebJobsStorage__clientId: identity.outputs.clientId
  EVALP_TASK_HUB: 'EvalPlatformHub'
  COSMOS_DATABASE_NAME: platform.cosmos.databaseName
  CosmosConnection__accountEndpoint: cosmos.outputs.endpoint
  CosmosConnection__credential: 'managedidentity'
  CosmosConnection__clientId: identity.outputs.clientId
  EVALP_SCORECARD_TTL_SECONDS: scorecardTtlDays > 0 ? string(scorecardTtlDays * 86400) : ''
  // retention: Cosmos TTL expires scorecards and counted outcomes; the housekeeping timer marks the runs and deletes audit records and artifacts
  EVALP_RETENTION_DAYS: scorecardTtlDays > 0 ? string(scorecardTtlDays) : ''
  EVALP_EVALUATE_JOB_RETENTION_DAYS: string(evaluateJobRetentionDays)
  // completed runs as Parquet tables in the storage account's analytics container (the identity's Blob Data Owner covers it)
  EVALP_ANALYTICS_EXPORT: analyticsExport ? 'on' : 'off'
  EVALP_ANALYTICS_BLOB_ENDPOINT: analyticsExport ? storage.outputs.blobEndpoint : ''
  EVALP_ANALYTICS_BLOB_CONTAINER: storage.outputs.analyticsContainerName
  EVALP_ANALYTICS_BLOB_PREFIX: ''
  ServiceBusConnection__fullyQualifiedNamespace: serviceBus.outputs.fullyQualifiedNamespace
  ServiceBusConnection__credential: 'managedidentity'
  ServiceBusConnection__clientId: identity.outputs.clientId
  EVALP_SEARCH_ENDPOINT: search.outputs.endpoint
  EVALP_SEARCH_INDEX: 'gold-set'
  AZURE_OPENAI_ENDPOINT: openAi.outputs.endpoint
  AZURE_OPENAI_DEPLOYMENT: openAi.outputs.judgeDeployment
  AZURE_OPENAI_API_VERSION: '2024-10-21'
  AZURE_OPENAI_EMBEDDINGS_DEPLOYMENT: openAi.outputs.embeddingsDeployment
  EVALP_EMBEDDINGS_DIMENSIONS: string(embeddingsModel.dimensions)
  EVALP_KEY_VAULT_URL: keyVault.outputs.uri
  EVALP_AUTH_API_KEYS: allowApiKeys ? 'on' : 'off'
  EVALP_AUTH_ENTRA_TENANT_ID: apiTenantId
  EVALP_AUTH_ENTRA_AUDIENCE: apiAudience
  APPLICATIONINSIGHTS_CONNECTION_STRING: monitoring.outputs.connectionString
  APPLICATIONINSIGHTS_AUTHENTICATION_STRING: 'ClientId=${identity.outputs.clientId};Authorization=AAD'
  EVALP_OTEL_SAMPLING_RATIO: tracesSamplingRatio
  // links in alerts and status URLs go through API Management (its gateway host is known before it exists)
  EVALP_PUBLIC_URL: 'https://${apimName}.azure-api.net/evalplatform'
  // e-mail through Azure Communication Services with the app's managed identity (empty: no e-mail)
  EVALP_EMAIL_FROM: emailSender
  EVALP_ACS_EMAIL_ENDPOINT: emailEndpoint
}

module functionApp 'modules/functionApp.bicep' = {
  name: 'functionApp'
  params: {
    name: functionAppName
    planName: 'plan-${resourceToken}'
    location: location
    tags: tags
    identityId: identity.outputs.id
    storageBlobEndpoint: storage.outputs.blobEndpoint
    deploymentContainerName: storage.outputs.deploymentContainerName
    maximumInstanceCount: functionMaximumInstanceCount
    instanceMemoryMB: functionInstanceMemoryMB
    appSettings: appSettings
    virtualNetworkSubnetId: privateNetworking ? network.outputs.appSubnetId : ''
  }
  // the app starts only once its private endpoints resolve
  dependsOn: [privateEndpoints]
}

module apim 'modules/apim.bicep' = {
  name: 'apim'
  params: {
    name: apimName
    location: location
    tags: tags
    sku: apimSku
    publisherEmail: apimPublisherEmail
    backendUrl: functionApp.outputs.url
    tenantId: apiTenantId
    audience: apiAudience
    specificationUrl: apiSpecificationUrl
  }
}

output functionAppName string = functionApp.outputs.name
output apiBaseUrl string = functionApp.outputs.url
output apimName string = apim.outputs.name
output apimGatewayUrl string = apim.outputs.gatewayUrl
output serviceBusNamespace string = serviceBus.outputs.fullyQualifiedNamespace
output cosmosEndpoint string = cosmos.outputs.endpoint
output openAiEndpoint string = openAi.outputs.endpoint
output searchEndpoint string = search.outputs.endpoint
output keyVaultUri string = keyVault.outputs.uri
output virtualNetworkId string = privateNetworking ? network.outputs.id : ''
