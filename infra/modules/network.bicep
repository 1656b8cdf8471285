// The virtual network of the private-networking option (app.bicep deploys it only when `privateNetworking` is on):
// one subnet the function app joins (Flex Consumption VNet integration: delegated to Microsoft.App/environments)
// and one for the private endpoints of the services the app uses.
param name string
param location string
param tags object = {}
@description('Address space of the virtual network; the two subnets take its first two /24 blocks')
param addressPrefix string

resource vnet 'Microsoft.Network/virtualNetworks@2024-05-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    addressSpace: { addressPrefixes: [addressPrefix] }
    subnets: [
      {
        // outbound traffic of every function app instance leaves through this subnet (one IP per instance)
        name: 'app'
        properties: {
          addressPrefix: cidrSubnet(addressPrefix, 24, 0)
          delegations: [{ name: 'flex-consumption', properties: { serviceName: 'Microsoft.App/environments' } }]
        }
      }
      {
        name: 'private-endpoints'
        properties: {
          addressPrefix: cidrSubnet(addressPrefix, 24, 1)
          privateEndpointNetworkPolicies: 'Disabled'
        }
      }
    ]
  }
}

output id string = vnet.id
output appSubnetId string = vnet.properties.subnets[0].id
output privateEndpointSubnetId string = vnet.properties.subnets[1].id
