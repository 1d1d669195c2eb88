import type { ChatContent } from '../outbox/message.ts';
import { formatJapanTime } from '../../text/japan-format.ts';
import { singleLine } from '../../text/safe-text.ts';

/** Discord's own webhook hosts get Discord's shape; every other host gets Slack's. */
export function isDiscordWebhook(url: string): boolean {
  return /(?:^|\.)discord(?:app)?\.com$/.test(new URL(url).hostname.toLowerCase());
}

/** The JSON body to post to a webhook at `url`. */
export function chatPayload(url: string, content: ChatContent): object {
  return isDiscordWebhook(url) ? discordPayload(content) : slackPayload(content);
}

/**
 * The message's time in Japan time, as a line of its own, unless a field already says it (受付日時):
 * a notice shows its time once.
 */
function timeLine(content: ChatContent): string[] {
  const time = formatJapanTime(content.timestamp);
  return content.fields.some((f) => f.value === time) ? [] : [time];
}

/** Plain text of the whole message, for notifications and clients that show no blocks: its time in Japan time, its link last. */
function plainText(content: ChatContent): string {
  return [
    content.title,
    ...content.fields.map((f) => `${f.label}: ${singleLine(f.value)}`),
    ...timeLine(content),
    ...(content.link ? [`${content.link.label}: ${content.link.url}`] : []),
  ].join('\n');
}

/**
 * Slack: `{text, mrkdwn: false, blocks}`. Every block's text that holds a value is `plain_text` with
 * emoji codes off, so a customer's `*bold*`, `_x_` or `:joy:` shows as typed and no URL or name
 * becomes a link; the notification text is not read as mrkdwn either. Slack still decodes `&amp;`,
 * `&lt;` and `&gt;` in all text and reads `<…>` as links and mentions (`<!channel>`), so those three
 * are escaped as Slack asks. The one link is the service's own (the record's page in the console),
 * in a block of its own, made of nothing a customer wrote.
 */
function slackPayload(content: ChatContent): object {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const plain = (text: string) => ({ type: 'plain_text', text: escape(text), emoji: false });
  return {
    text: escape(plainText(content)),
    mrkdwn: false,
    blocks: [
      { type: 'header', text: plain(content.title.slice(0, 150)) },
      { type: 'section', fields: content.fields.slice(0, 10).map((f) => plain(`${f.label}\n${singleLine(f.value) || '-'}`)) },
      ...(content.link
        ? [{ type: 'section', text: { type: 'mrkdwn', text: `<${escape(content.link.url)}|${escape(content.link.label)}>` } }]
        : []),
      ...timeLine(content).map((time) => ({ type: 'context', elements: [plain(time)] })),
    ],
  };
}

/**
 * Discord: `{content, embeds}`. Mentions are switched off (`allowed_mentions`), and markdown
 * characters are escaped, `:` and `@` too, so a value cannot become bold, a link (`https\://` is not
 * one), an emoji or a highlighted "@everyone". The record's page in the console is the embed's own
 * link (its title), the time in Japan time its footer when no field says it.
 */
function discordPayload(content: ChatContent): object {
  const escape = (text: string) => text.replace(/[\\*_~`|>[\]()#<:@-]/g, '\\$&');
  const [time] = timeLine(content);
  return {
    content: escape(content.title),
    embeds: [
      {
        title: escape(content.title.slice(0, 128)), // escaped, at most 256 as Discord allows
        ...(content.link ? { url: content.link.url } : {}),
        fields: content.fields.slice(0, 25).map((f) => ({ name: f.label, value: escape(singleLine(f.value)) || '-', inline: true })),
        // Discord shows an embed's timestamp in the reader's own zone: not sent, the time is said once, in Japan time.
        ...(time === undefined ? {} : { footer: { text: time } }),
      },
    ],
    allowed_mentions: { parse: [] },
  };
}
