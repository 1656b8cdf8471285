// Azure portal monitoring of the platform: an Application Insights workbook (runs started/completed, cases per
// second, stage pass rates, dead letters, target errors, judge tokens and cost) and alert rules: dead-letter depth
// above a threshold, a failed or timed-out run, and no completed scheduled (nightly) run within a window. Queries
// read the app's OpenTelemetry names (lib/telemetry/names.ts); infra/observability.test.ts keeps them in step.
param location string
param tags object = {}
param appInsightsId string
param serviceBusNamespaceId string
@description('Send alert e-mails here (empty: alerts show in the portal only)')
param alertEmail string = ''
@description('Dead-lettered messages (max over 5 minutes, any queue) above which the dead-letter alert fires')
param deadLetterThreshold int = 0
@description('Hours without a completed scheduled run before the missed-nightly alert fires (26: a nightly run plus slack)')
param nightlyWindowHours int = 26

var workbookText = replace(replace(loadTextContent('../workbook.json'), '__APP_INSIGHTS_ID__', appInsightsId), '__SERVICE_BUS_NAMESPACE_ID__', serviceBusNamespaceId)

resource workbook 'Microsoft.Insights/workbooks@2023-06-01' = {
  name: guid(appInsightsId, 'evalplatform-workbook')
  location: location
  tags: tags
  kind: 'shared'
  properties: {
    displayName: 'EvalPlatform'
    category: 'workbook'
    sourceId: appInsightsId
    serializedData: workbookText
  }
}

resource actionGroup 'Microsoft.Insights/actionGroups@2023-01-01' = if (!empty(alertEmail)) {
  name: 'ag-evalplatform'
  location: 'global'
  tags: tags
  properties: {
    groupShortName: 'evalp'
    enabled: true
    emailReceivers: [ { name: 'oncall', emailAddress: alertEmail, useCommonAlertSchema: true } ]
  }
}

var actions = empty(alertEmail) ? [] : [ { actionGroupId: actionGroup.id } ]

resource deadLetterAlert 'Microsoft.Insights/metricAlerts@2018-03-01' = {
  name: 'evalp-dead-letters'
  location: 'global'
  tags: tags
  properties: {
    description: 'Messages were dead-lettered in a stage queue: inspect and replay them (evalp dlq, or the dashboard\'s Dead letters view)'
    severity: 2
    enabled: true
    scopes: [ serviceBusNamespaceId ]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT5M'
    criteria: {
      'odata.type': 'Microsoft.Azure.Monitor.SingleResourceMultipleMetricCriteria'
      allOf: [
        {
          criterionType: 'StaticThresholdCriterion'
          name: 'deadLettered'
          metricNamespace: 'Microsoft.ServiceBus/namespaces'
          metricName: 'DeadletteredMessages'
          dimensions: [ { name: 'EntityName', operator: 'Include', values: [ '*' ] } ]
          operator: 'GreaterThan'
          threshold: deadLetterThreshold
          timeAggregation: 'Maximum'
        }
      ]
    }
    actions: [for a in actions: { actionGroupId: a.actionGroupId }]
  }
}

resource failedRunAlert 'Microsoft.Insights/scheduledQueryRules@2023-03-15-preview' = {
  name: 'evalp-failed-run'
  location: location
  tags: tags
  properties: {
    description: 'A run failed or timed out, or its orchestration failed'
    severity: 1
    enabled: true
    scopes: [ appInsightsId ]
    evaluationFrequency: 'PT15M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "eval.runs.finished" and tostring(customDimensions["eval.status"]) in ("failed", "timed_out") | summarize failures = sum(valueSum) | union (requests | where name in ("runEvaluation", "planRun", "finalizeRun") and success == false | summarize failures = todouble(count())) | summarize failures = sum(failures)'
          timeAggregation: 'Total'
          metricMeasureColumn: 'failures'
          operator: 'GreaterThan'
          threshold: 0
          failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 }
        }
      ]
    }
    actions: { actionGroups: [for a in actions: a.actionGroupId] }
  }
}

resource missedNightlyAlert 'Microsoft.Insights/scheduledQueryRules@2023-03-15-preview' = {
  name: 'evalp-no-nightly-run'
  location: location
  tags: tags
  properties: {
    description: 'No scheduled run completed within the window: a client schedule, the timer or the run pipeline is stuck'
    severity: 2
    enabled: true
    scopes: [ appInsightsId ]
    evaluationFrequency: 'PT1H'
    windowSize: 'PT${nightlyWindowHours}H'
    criteria: {
      allOf: [
        {
          query: 'customMetrics | where name == "eval.runs.finished" and tostring(customDimensions["eval.trigger"]) == "schedule" and tostring(customDimensions["eval.status"]) == "completed" | summarize completed = sum(valueSum) | union (print completed = 0.0) | summarize completed = sum(completed)'
          timeAggregation: 'Total'
          metricMeasureColumn: 'completed'
          operator: 'LessThan'
          threshold: 1
          failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 }
        }
      ]
    }
    actions: { actionGroups: [for a in actions: a.actionGroupId] }
  }
}

output workbookId string = workbook.id
