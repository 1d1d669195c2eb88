import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chatPayload, isDiscordWebhook } from './chat-payload.ts';
import type { ChatContent } from './message.ts';

const content: ChatContent = {
  title: '新しい予約: Kumo VCO II',
  fields: [
    { label: 'お名前', value: '<!channel> @everyone [click](https://evil.example) & co\r\nline' },
    { label: '予約番号', value: 'res_1' },
  ],
  timestamp: '2026-01-02T03:04:05.006Z',
};

test('Discord shape for discord.com and discordapp.com hosts only', () => {
  for (const url of ['https://discord.com/api/webhooks/1/x', 'https://ptb.discord.com/api/webhooks/1/x', 'https://discordapp.com/api/webhooks/1/x']) {
    assert.equal(isDiscordWebhook(url), true, url);
  }
  for (const url of ['https://hooks.slack.com/services/x', 'https://discord.com.evil.example/x', 'https://notdiscord.com/x', 'http://127.0.0.1:9/discord.com']) {
    assert.equal(isDiscordWebhook(url), false, url);
  }
});

test('Slack: {text, blocks}, with <, > and & escaped so nothing becomes a mention or a link', () => {
  const payload = chatPayload('https://hooks.slack.com/services/x', content) as { text: string; blocks: any[] };
  assert.deepEqual(Object.keys(payload), ['text', 'blocks']);
  assert.ok(!payload.text.includes('<!channel>'));
  assert.ok(payload.text.includes('&lt;!channel&gt;'));
  assert.ok(payload.text.includes('&amp; co line'), 'one line');
  assert.equal(payload.blocks[0].text.text, content.title);
  assert.deepEqual(payload.blocks[1].fields.map((f: { text: string }) => f.text.split('\n')[0]), ['*お名前*', '*予約番号*']);
  assert.equal(payload.blocks[2].elements[0].text, content.timestamp);
});

test('Discord: {content, embeds} with mentions switched off and markdown escaped', () => {
  const payload = chatPayload('https://discord.com/api/webhooks/1/x', content) as { content: string; embeds: any[]; allowed_mentions: unknown };
  assert.deepEqual(Object.keys(payload), ['content', 'embeds', 'allowed_mentions']);
  assert.deepEqual(payload.allowed_mentions, { parse: [] });
  const [embed] = payload.embeds;
  assert.equal(embed.title, content.title);
  assert.equal(embed.timestamp, content.timestamp);
  assert.equal(embed.fields[0].name, 'お名前');
  assert.ok(embed.fields[0].value.includes('\\[click\\]\\(https://evil.example\\)'), embed.fields[0].value);
  assert.ok(!embed.fields[0].value.includes('\n'));
});
