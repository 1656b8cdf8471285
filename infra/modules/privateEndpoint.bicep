// One private endpoint of a platform resource (app.bicep: one per entry of `privateLinks`) with the private DNS
// zone that resolves the resource's public host name to the endpoint's address inside the virtual network.
param name string
param location string
param tags object = {}
@description('Resource id of the service the endpoint connects to')
param serviceId string
@description('Private link sub-resource (group id) of that service, e.g. Sql, namespace, blob')
param groupId string
@description('The privatelink DNS zone of that sub-resource')
param dnsZoneName string
param virtualNetworkId string
param subnetId string

resource zone 'Microsoft.Network/privateDnsZones@2024-06-01' = {
  name: dnsZoneName
  location: 'global'
  tags: tags
}

resource zoneLink 'Microsoft.Network/privateDnsZones/virtualNetworkLinks@2024-06-01' = {
  parent: zone
  name: '${name}-link'
  location: 'global'
  tags: tags
  properties: {
    registrationEnabled: false
    virtualNetwork: { id: virtualNetworkId }
  }
}

resource endpoint 'Microsoft.Network/privateEndpoints@2024-05-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    subnet: { id: subnetId }
    privateLinkServiceConnections: [
      {
        name: name
        properties: { privateLinkServiceId: serviceId, groupIds: [groupId] }
      }
    ]
  }

  resource dns 'privateDnsZoneGroups' = {
    name: 'default'
    properties: {
      privateDnsZoneConfigs: [{ name: replace(dnsZoneName, '.', '-'), properties: { privateDnsZoneId: zone.id } }]
    }
  }
}

output id string = endpoint.id
