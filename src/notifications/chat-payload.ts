import type { ChatContent } from './message.ts';
import { singleLine } from '../text/safe-text.ts';

/** Discord's own webhook hosts get Discord's shape; every other host gets Slack's (SPEC §1). */
export function isDiscordWebhook(url: string): boolean {
  return /(?:^|\.)discord(?:app)?\.com$/.test(new URL(url).hostname.toLowerCase());
}

/** The JSON body to post to a webhook at `url`. */
export function chatPayload(url: string, content: ChatContent): object {
  return isDiscordWebhook(url) ? discordPayload(content) : slackPayload(content);
}

/** Plain text of the whole message, for notifications and clients that show no blocks. */
function plainText(content: ChatContent): string {
  return [content.title, ...content.fields.map((f) => `${f.label}: ${singleLine(f.value)}`), content.timestamp].join('\n');
}

/**
 * Slack: `{text, blocks}`. Slack reads `<…>` as links and mentions (`<!channel>`) and `&` as an
 * entity, so those three are escaped in everything shown, as Slack asks.
 */
function slackPayload(content: ChatContent): object {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return {
    text: escape(plainText(content)),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: content.title.slice(0, 150) } },
      {
        type: 'section',
        fields: content.fields.slice(0, 10).map((f) => ({ type: 'mrkdwn', text: `*${escape(f.label)}*\n${escape(singleLine(f.value))}` })),
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: escape(content.timestamp) }] },
    ],
  };
}

/**
 * Discord: `{content, embeds}`. Mentions are switched off (`allowed_mentions`), so a name such as
 * "@everyone" pings nobody, and markdown characters are escaped so a value cannot become a link.
 */
function discordPayload(content: ChatContent): object {
  const escape = (text: string) => text.replace(/[\\*_~`|>[\]()#<-]/g, '\\$&');
  return {
    content: escape(content.title),
    embeds: [
      {
        title: content.title.slice(0, 256),
        fields: content.fields.slice(0, 25).map((f) => ({ name: f.label, value: escape(singleLine(f.value)) || '-', inline: true })),
        timestamp: content.timestamp,
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
