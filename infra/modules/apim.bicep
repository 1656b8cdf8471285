// API Management in front of the management API: imports the OpenAPI document the app serves
// (GET /api/openapi.json, generated from the route table) and validates Entra ID tokens (validate-jwt) on every
// operation but the anonymous ones. The app checks the token again (roles claim).
param name string
param location string
param tags object = {}
@allowed(['Consumption', 'Developer', 'BasicV2', 'StandardV2'])
param sku string = 'Consumption'
param publisherEmail string
param publisherName string = 'EvalPlatform'
@description('The function app origin (https://<host>); the OpenAPI paths start with /api')
param backendUrl string
param tenantId string
param audience string
@description('https://<host>/api/openapi.json: import the operations at provisioning (empty: the postdeploy hook imports them)')
param specificationUrl string = ''

resource apim 'Microsoft.ApiManagement/service@2023-05-01-preview' = {
  name: name
  location: location
  tags: tags
  sku: { name: sku, capacity: sku == 'Consumption' ? 0 : 1 }
  properties: {
    publisherEmail: publisherEmail
    publisherName: publisherName
  }
}

var apiProperties = {
  displayName: 'EvalPlatform management API'
  path: 'evalplatform'
  protocols: ['https']
  serviceUrl: backendUrl
  subscriptionRequired: false
}
var apiSpecification = empty(specificationUrl) ? {} : { format: 'openapi+json-link', value: specificationUrl }

resource api 'Microsoft.ApiManagement/service/apis@2023-05-01-preview' = {
  parent: apim
  name: 'evalplatform'
  properties: union(apiProperties, apiSpecification)
}

resource policy 'Microsoft.ApiManagement/service/apis/policies@2023-05-01-preview' = {
  parent: api
  name: 'policy'
  properties: {
    format: 'rawxml'
    value: replace(replace(loadTextContent('apimPolicy.xml'), '{tenantId}', tenantId), '{audience}', audience)
  }
}

output name string = apim.name
output gatewayUrl string = apim.properties.gatewayUrl
