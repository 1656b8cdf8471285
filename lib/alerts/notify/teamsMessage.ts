import type { AlertSeverity } from '../../domain/index.js';
import type { AlertFacts } from './alertFacts.js';

/** Adaptive Card text colours per severity */
const COLOUR: Record<AlertSeverity, string> = { low: 'Default', medium: 'Warning', high: 'Attention', critical: 'Attention' };

/**
 * A Microsoft Teams webhook message carrying an Adaptive Card (what Teams Workflows webhooks and incoming
 * webhooks accept): a `message` with one `application/vnd.microsoft.card.adaptive` attachment holding the title,
 * the summary, a FactSet and an "Open the alert" action.
 */
export function teamsMessage(facts: AlertFacts, severity: AlertSeverity = facts.severity): unknown {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              text: facts.title,
              weight: 'Bolder',
              size: 'Large',
              wrap: true,
              color: COLOUR[severity],
            },
            { type: 'TextBlock', text: facts.summary, wrap: true },
            { type: 'FactSet', facts: facts.facts.map((f) => ({ title: f.name, value: f.value })) },
          ],
          ...(facts.link ? { actions: [{ type: 'Action.OpenUrl', title: 'Open the alert', url: facts.link }] } : {}),
        },
      },
    ],
  };
}
