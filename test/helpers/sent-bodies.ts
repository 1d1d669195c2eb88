import { z } from 'zod';

// The JSON the service sends to providers (the email API, Slack- and Discord-style webhooks), as
// schemas: a test reads a received body through them, so a field it picks is checked, not assumed.

/** A Resend-style email API request (src/messaging/delivery/email-api.ts). */
export const EmailApiBody = z.strictObject({
  from: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
});

const SlackText = z.strictObject({ type: z.string(), text: z.string(), emoji: z.boolean().optional() });

/** A Slack-style webhook message (src/messaging/chat/webhook-payload.ts). */
export const SlackBody = z.strictObject({
  text: z.string(),
  mrkdwn: z.boolean().optional(),
  blocks: z.array(
    z.strictObject({
      type: z.string(),
      text: SlackText.optional(),
      fields: z.array(SlackText).optional(),
      elements: z.array(SlackText).optional(),
    }),
  ),
});

/** A Discord-style webhook message (src/messaging/chat/webhook-payload.ts). */
export const DiscordBody = z.strictObject({
  content: z.string(),
  embeds: z.array(
    z.strictObject({
      title: z.string(),
      url: z.string().optional(),
      fields: z.array(z.strictObject({ name: z.string(), value: z.string(), inline: z.boolean() })),
      footer: z.strictObject({ text: z.string() }).optional(),
    }),
  ),
  allowed_mentions: z.strictObject({ parse: z.array(z.string()) }),
});
