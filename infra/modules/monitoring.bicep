// Log Analytics + workspace-based Application Insights with local auth disabled: ingestion needs Entra ID
// (Monitoring Metrics Publisher for the app's identity, APPLICATIONINSIGHTS_AUTHENTICATION_STRING in the app).
param logAnalyticsName string
param appInsightsName string
param location string
param tags object = {}
param principalId string

var roles = loadJsonContent('../platform.json').roles

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: logAnalyticsName
  location: location
  tags: tags
  properties: {
    sku: { name: 'PerGB2018' }
    retentionInDays: 30
  }
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: appInsightsName
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: logAnalytics.id
    DisableLocalAuth: true
  }
}

resource metricsPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(appInsights.id, principalId, roles.monitoringMetricsPublisher.id)
  scope: appInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.monitoringMetricsPublisher.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = appInsights.name
output id string = appInsights.id
output connectionString string = appInsights.properties.ConnectionString
