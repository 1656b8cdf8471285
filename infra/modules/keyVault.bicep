// Key Vault for `{"keyvault": "<secret name>"}` references in target settings (API keys of the systems under
// evaluation). RBAC authorization; the app may only read secrets (Key Vault Secrets User).
param name string
param location string
param tags object = {}
param principalId string
@allowed(['Enabled', 'Disabled'])
@description('Disabled with the private-networking option: reached through its private endpoint only')
param publicNetworkAccess string = 'Enabled'

var roles = loadJsonContent('../platform.json').roles

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    tenantId: subscription().tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 7
    publicNetworkAccess: publicNetworkAccess
  }
}

resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, principalId, roles.keyVaultSecretsUser.id)
  scope: vault
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', roles.keyVaultSecretsUser.id)
    principalId: principalId
    principalType: 'ServicePrincipal'
  }
}

output name string = vault.name
output id string = vault.id
output uri string = vault.properties.vaultUri
