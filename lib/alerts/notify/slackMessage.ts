import type { AlertFacts } from './alertFacts.js';

/**
 * A Slack incoming-webhook message: `text` (the fallback shown in notifications) and Block Kit `blocks`
 * (header, summary, the facts as a two-column field list, a link).
 */
export function slackMessage(facts: AlertFacts): { text: string; blocks: unknown[] } {
  const blocks: unknown[] = [
    { type: 'header', text: { type: 'plain_text', text: facts.title.slice(0, 150), emoji: true } },
    { type: 'section', text: { type: 'mrkdwn', text: escapeMrkdwn(facts.summary) } },
    // Slack allows at most 10 fields per section
    {
      type: 'section',
      fields: facts.facts.slice(0, 10).map((f) => ({ type: 'mrkdwn', text: `*${escapeMrkdwn(f.name)}*\n${escapeMrkdwn(f.value)}` })),
    },
  ];
  if (facts.link) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: `<${facts.link}|Open the alert>` }] });
  return { text: escapeMrkdwn(`${facts.title}: ${facts.summary}`), blocks };
}

/** Slack's three control characters in mrkdwn text. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
