// The user-assigned managed identity the function app runs as. User-assigned (not system-assigned) so its roles
// can be granted before the app exists, and the same identity serves the host (storage, triggers) and the SDKs.
param name string
param location string
param tags object = {}

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: name
  location: location
  tags: tags
}

output id string = identity.id
output name string = identity.name
output principalId string = identity.properties.principalId
output clientId string = identity.properties.clientId
