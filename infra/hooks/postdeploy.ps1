# azd postdeploy on Windows: same as postdeploy.sh (import the API into API Management from the deployed app).
$ErrorActionPreference = 'Stop'
foreach ($name in 'AZURE_RESOURCE_GROUP', 'APIM_NAME', 'API_BASE_URL') {
  if (-not (Get-Item "env:$name" -ErrorAction SilentlyContinue)) { throw "$name is not set: run through azd" }
}
$spec = "$env:API_BASE_URL/api/openapi.json"
for ($attempt = 1; $attempt -le 12; $attempt++) {
  try { Invoke-WebRequest -Uri $spec -UseBasicParsing | Out-Null; break } catch { if ($attempt -eq 12) { throw "the app does not serve $spec" }; Start-Sleep -Seconds 10 }
}
az apim api import --resource-group $env:AZURE_RESOURCE_GROUP --service-name $env:APIM_NAME --api-id evalplatform --path evalplatform `
  --display-name "EvalPlatform management API" --specification-format OpenApiJson --specification-url $spec `
  --service-url $env:API_BASE_URL --protocols https --subscription-required false
if ($LASTEXITCODE -ne 0) { throw "az apim api import failed" }
