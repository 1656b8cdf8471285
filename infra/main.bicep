// EvalPlatform on Azure: one resource group with the function app (Flex Consumption) and everything it uses.
// `azd up` deploys it (azure.yaml). The facts the code dictates (queues, Cosmos DB containers, roles) live in
// platform.json, which the modules load; infra.test.ts checks them against the code.
targetScope = 'subscription'

@minLength(1)
@maxLength(64)
@description('azd environment name: names and tags every resource')
param environmentName string

@minLength(1)
@description('Region of every resource: Flex Consumption, the Azure OpenAI models and AI Search must be offered there')
@metadata({ azd: { type: 'location' } })
param location string

@description('Entra ID audience the API accepts: the Application ID URI (api://...) or client id of the API app registration (see the README)')
param apiAudience string

@description('Entra ID tenant of the API callers (default: the subscription\'s tenant)')
param apiTenantId string = tenant().tenantId

@description('Also accept the platform\'s own API keys (besides Entra ID tokens) on the function app')
param allowApiKeys bool = false

@allowed(['Standard', 'Premium'])
@description('Service Bus tier: Standard is throttled at 1,000 operations/s per namespace; Premium is dedicated (see the README for 400,000-case runs)')
param serviceBusSku string = 'Standard'

@minValue(1)
@maxValue(16)
@description('Premium messaging units (Premium only)')
param serviceBusMessagingUnits int = 1

@allowed(['serverless', 'autoscale'])
@description('Cosmos DB capacity: serverless (pay per request unit, no idle cost) or autoscale (shared database throughput)')
param cosmosCapacityMode string = 'serverless'

@minValue(1000)
@description('Autoscale maximum RU/s of the database (autoscale only; it scales down to 10% when idle)')
param cosmosAutoscaleMaxThroughput int = 10000

@minValue(1)
@maxValue(1000)
@description('Flex Consumption: the most instances the app scales to (each queue trigger scales on its own)')
param functionMaximumInstanceCount int = 100

@allowed([512, 2048, 4096])
@description('Flex Consumption instance memory (MB)')
param functionInstanceMemoryMB int = 2048

@minValue(0)
@description('Retention: scorecards and counted outcomes expire (Cosmos TTL) this many days after their last write, and the housekeeping timer marks runs past it and deletes their audit records and artifacts; run statistics are kept (0: keep forever)')
param scorecardTtlDays int = 90

@minValue(1)
@description('/api/evaluate jobs are deleted (run, scorecards, suite, target, cases) this many days after they finished')
param evaluateJobRetentionDays int = 30

@description('Write every completed run as a Parquet table to the storage account\'s analytics container (docs/analytics-export.md)')
param analyticsExport bool = true

@description('Share of runs traced in Application Insights, "0" to "1" (one run is one trace; metrics are always complete)')
param tracesSamplingRatio string = '1'

@description('The judge\'s chat model deployment (capacity in thousands of tokens per minute)')
param judgeModel object = {
  deployment: 'judge'
  name: 'gpt-4.1-mini'
  version: '2025-04-14'
  sku: 'GlobalStandard'
  capacity: 100
}

@description('The embeddings deployment of the gold-set index (dimensions must match the model)')
param embeddingsModel object = {
  deployment: 'embeddings'
  name: 'text-embedding-3-small'
  version: '1'
  sku: 'Standard'
  capacity: 100
  dimensions: 1536
}

@allowed(['basic', 'standard'])
param searchSku string = 'basic'

@allowed(['Consumption', 'Developer', 'BasicV2', 'StandardV2'])
param apimSku string = 'Consumption'

@description('Publisher e-mail of the API Management instance (required by Azure)')
param apimPublisherEmail string = 'evalplatform@example.com'

@description('When set (the app\'s https://<host>/api/openapi.json once deployed), API Management imports the API from it at provisioning; otherwise the postdeploy hook imports it')
param apiSpecificationUrl string = ''

@description('Private networking: Service Bus (then Premium), Cosmos DB, Storage, AI Search, Key Vault and Azure OpenAI get private endpoints and no public network access, and the function app joins a virtual network for its outbound traffic (see infra/README.md)')
param privateNetworking bool = false

@description('Address space of the virtual network of the private-networking option (a /16 to /23; its first two /24 blocks become the app and private-endpoint subnets)')
param virtualNetworkAddressPrefix string = '10.40.0.0/16'

@description('E-mail of alerts and finished runs: the endpoint of an Azure Communication Services resource with a connected, verified e-mail domain (https://<name>.communication.azure.com); empty: no e-mail (docs/azure.md)')
param emailEndpoint string = ''

@description('The sender address of those e-mails (a MailFrom address of the connected domain, e.g. DoNotReply@<domain>)')
param emailSender string = ''

var resourceToken = toLower(uniqueString(subscription().id, environmentName, location))
var tags = { 'azd-env-name': environmentName }

resource rg 'Microsoft.Resources/resourceGroups@2024-03-01' = {
  name: 'rg-${environmentName}'
  location: location
  tags: tags
}

module platform 'app.bicep' = {
  name: 'evalplatform'
  scope: rg
  params: {
    location: location
    tags: tags
    resourceToken: resourceToken
    apiAudience: apiAudience
    apiTenantId: apiTenantId
    allowApiKeys: allowApiKeys
    serviceBusSku: serviceBusSku
    serviceBusMessagingUnits: serviceBusMessagingUnits
    cosmosCapacityMode: cosmosCapacityMode
    cosmosAutoscaleMaxThroughput: cosmosAutoscaleMaxThroughput
    functionMaximumInstanceCount: functionMaximumInstanceCount
    functionInstanceMemoryMB: functionInstanceMemoryMB
    scorecardTtlDays: scorecardTtlDays
    evaluateJobRetentionDays: evaluateJobRetentionDays
    analyticsExport: analyticsExport
    tracesSamplingRatio: tracesSamplingRatio
    judgeModel: judgeModel
    embeddingsModel: embeddingsModel
    searchSku: searchSku
    apimSku: apimSku
    apimPublisherEmail: apimPublisherEmail
    apiSpecificationUrl: apiSpecificationUrl
    privateNetworking: privateNetworking
    virtualNetworkAddressPrefix: virtualNetworkAddressPrefix
    emailEndpoint: emailEndpoint
    emailSender: emailSender
  }
}

output AZURE_LOCATION string = location
output AZURE_TENANT_ID string = tenant().tenantId
output AZURE_RESOURCE_GROUP string = rg.name
output AZURE_FUNCTION_APP_NAME string = platform.outputs.functionAppName
output API_BASE_URL string = platform.outputs.apiBaseUrl
output APIM_NAME string = platform.outputs.apimName
output APIM_GATEWAY_URL string = platform.outputs.apimGatewayUrl
output SERVICE_BUS_NAMESPACE string = platform.outputs.serviceBusNamespace
output COSMOS_ENDPOINT string = platform.outputs.cosmosEndpoint
output AZURE_OPENAI_ENDPOINT string = platform.outputs.openAiEndpoint
output EVALP_SEARCH_ENDPOINT string = platform.outputs.searchEndpoint
output EVALP_KEY_VAULT_URL string = platform.outputs.keyVaultUri
