#!/bin/sh
# azd postdeploy: import the management API into API Management from the OpenAPI document the deployed app serves
# (GET /api/openapi.json, anonymous, generated from the route table). Re-running it updates the operations; the
# API's validate-jwt policy (infra/modules/apimPolicy.xml) stays.
set -eu
: "${AZURE_RESOURCE_GROUP:?run through azd (azd deploy / azd up)}"
: "${APIM_NAME:?}"
: "${API_BASE_URL:?}"
spec="$API_BASE_URL/api/openapi.json"
echo "Waiting for $spec ..."
for attempt in 1 2 3 4 5 6 7 8 9 10 11 12; do
  if curl -fsS -o /dev/null "$spec"; then break; fi
  [ "$attempt" = 12 ] && { echo "the app does not serve $spec" >&2; exit 1; }
  sleep 10
done
az apim api import \
  --resource-group "$AZURE_RESOURCE_GROUP" \
  --service-name "$APIM_NAME" \
  --api-id evalplatform \
  --path evalplatform \
  --display-name "EvalPlatform management API" \
  --specification-format OpenApiJson \
  --specification-url "$spec" \
  --service-url "$API_BASE_URL" \
  --protocols https \
  --subscription-required false
echo "API Management: ${APIM_GATEWAY_URL:-}/evalplatform/api/health"
