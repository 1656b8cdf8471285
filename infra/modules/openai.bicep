// Azure OpenAI with the judge's chat deployment and the gold-set embeddings deployment. Keys are off: the app
// calls it with Entra ID tokens (Cognitive Services OpenAI User).
param name string
param location string
param tags object = {}
param principalId string
param judgeModel object
param embeddingsModel object
@allowed(['Enabled', 'Disabled'])
@description('Disabled with the private-networking option: reached through its private endpoint only')
param publicNetworkAccess string = 'Enabled'

var roles = loadJsonContent('../platform.json').roles

resource account 'Microsoft.CognitiveServices/accounts@2024-10-01' = {
  name: name
  location: location
  tags: tags
  kind: 'OpenAI'
  sku: { name: 'S0' }
  properties: {
    customSubDomainName: name
    disableLocalAuth: true
    publicNetworkAccess: publicNetworkAccess
    networkAcls: { defaultAction: publicNetworkAccess == 'Enabled' ? 'Allow' : 'Deny' }
  }
}

resource judge 'Microsoft.CognitiveServices/accounts/deployments@2024-10-01' = {
  parent: account
  name: judgeModel.deployment
  sku: { name: judgeModel.sku, capacity: judgeModel.capacity }
  properties: {
    model: { format: 'OpenAI', name: judgeModel.name, version: judgeModel.version }
  }
}

// one deployment at a time: parallel deployments on one account conflict
resource embeddings 'Microsoft.CognitiveServices/accounts/deployments@2024-10-01' = {
  parent: account
  name: embeddingsModel.deployment
  dependsOn: [judge]
  sku: { name: embeddingsModel.sku, capacity: embeddingsModel.capacity }
  properties: {
    model: { format: 'OpenAI', name: embeddingsModel.name, version: embeddingsModel.version }
  }
}

resource openAiUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(account.id, principalId, roles.cognitiveServicesOpenAIUser.id)
  scope: account
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.cognitiveServicesOpenAIUser.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = account.name
output id string = account.id
output endpoint string = account.properties.endpoint
output judgeDeployment string = judge.name
output embeddingsDeployment string = embeddings.name
