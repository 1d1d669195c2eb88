import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { DiscordBody, SlackBody } from '../../../test/helpers/sent-bodies.ts';
import { chatPayload, isDiscordWebhook } from './webhook-payload.ts';
import type { ChatContent } from '../outbox/message.ts';

const content: ChatContent = {
  title: '新しい予約: Kumo VCO II',
  fields: [
    { label: 'お名前', value: '<!channel> @everyone *bold* _it_ :joy: [click](https://evil.example) & co\r\nline' },
    { label: '予約番号', value: 'res_1' },
  ],
  timestamp: '2026-01-02T03:04:05.006Z',
  link: { label: '管理画面で予約を開く', url: 'https://shop.example.jp/admin#/reservations?record=res_1&x=<y>' },
};

test('Discord shape for discord.com and discordapp.com hosts only', () => {
  for (const url of [
    'https://discord.com/api/webhooks/1/x',
    'https://ptb.discord.com/api/webhooks/1/x',
    'https://discordapp.com/api/webhooks/1/x',
  ]) {
    assert.equal(isDiscordWebhook(url), true, url);
  }
  for (const url of [
    'https://hooks.slack.com/services/x',
    'https://discord.com.evil.example/x',
    'https://notdiscord.com/x',
    'http://127.0.0.1:9/discord.com',
  ]) {
    assert.equal(isDiscordWebhook(url), false, url);
  }
});

test('Slack: {text, mrkdwn: false, blocks}, all plain text, with <, > and & escaped so nothing becomes a mention or a link', () => {
  const payload = SlackBody.parse(chatPayload('https://hooks.slack.com/services/x', content));
  assert.deepEqual(Object.keys(payload), ['text', 'mrkdwn', 'blocks']);
  assert.equal(payload.mrkdwn, false, 'the notification text is not read as mrkdwn');
  assert.ok(!payload.text.includes('<!channel>'));
  assert.ok(payload.text.includes('&lt;!channel&gt;'));
  assert.ok(payload.text.includes('&amp; co line'), 'one line');
  assert.equal(payload.blocks[0]?.text?.text, content.title);
  assert.deepEqual(
    payload.blocks[1]?.fields?.map((f) => f.text),
    ['お名前\n&lt;!channel&gt; @everyone *bold* _it_ :joy: [click](https://evil.example) &amp; co line', '予約番号\nres_1'],
  );
  // The time in Japan time; the record's page as the one link, the service's own, escaped as Slack asks.
  assert.equal(payload.blocks[3]?.elements?.[0]?.text, '2026年1月2日 12:04');
  assert.ok(
    payload.text.includes(
      '\n2026年1月2日 12:04\n管理画面で予約を開く: https://shop.example.jp/admin#/reservations?record=res_1&amp;x=&lt;y&gt;',
    ),
    payload.text,
  );
  assert.deepEqual(payload.blocks[2]?.text, {
    type: 'mrkdwn',
    text: '<https://shop.example.jp/admin#/reservations?record=res_1&amp;x=&lt;y&gt;|管理画面で予約を開く>',
  });
  const texts = [0, 1, 3]
    .map((i) => payload.blocks[i]!)
    .flatMap((block) => [block.text, ...(block.fields ?? []), ...(block.elements ?? [])])
    .filter((t) => t !== undefined);
  assert.deepEqual(
    new Set(texts.map((t) => `${t.type} ${t.emoji}`)),
    new Set(['plain_text false']),
    'no mrkdwn, no :emoji: codes in any value',
  );
});

test('Discord: {content, embeds} with mentions switched off and markdown escaped', () => {
  const payload = DiscordBody.parse(chatPayload('https://discord.com/api/webhooks/1/x', content));
  assert.deepEqual(Object.keys(payload), ['content', 'embeds', 'allowed_mentions']);
  assert.deepEqual(payload.allowed_mentions, { parse: [] });
  const [embed] = payload.embeds;
  assert.equal(embed?.title, '新しい予約\\: Kumo VCO II');
  assert.equal(payload.content, embed?.title);
  assert.equal(embed?.footer?.text, '2026年1月2日 12:04', 'the time in Japan time, not a timestamp Discord shows in the reader’s zone');
  assert.equal(embed?.url, content.link!.url, 'the title links to the record’s page');
  const name = embed!.fields[0]!;
  assert.equal(name.name, 'お名前');
  assert.ok(name.value.includes('\\@everyone \\*bold\\* \\_it\\_ \\:joy\\: \\[click\\]\\(https\\://evil.example\\)'), name.value);
  assert.ok(!name.value.includes('\n'));
});

test('a notice whose field says its time (受付日時) shows it there only: no time line in either shape', () => {
  const time = '2026年1月2日 12:04';
  const withTime: ChatContent = { ...content, fields: [...content.fields, { label: '受付日時', value: time }] };
  const once = (text: string) => text.split(time).length - 1;
  const slack = SlackBody.parse(chatPayload('https://hooks.slack.com/services/x', withTime));
  assert.equal(once(slack.text), 1, slack.text);
  assert.equal(once(JSON.stringify(slack.blocks)), 1);
  assert.ok(!slack.blocks.some((block) => block.type === 'context'));
  const discord = DiscordBody.parse(chatPayload('https://discord.com/api/webhooks/1/x', withTime));
  // Discord's field is escaped as every value is (12\:04); the footer would hold the time again.
  assert.deepEqual(discord.embeds[0]!.fields.at(-1), { name: '受付日時', value: '2026年1月2日 12\\:04', inline: true });
  assert.equal(discord.embeds[0]!.footer, undefined);
});

test('for any customer text, neither shape lets it become a mention, a link or a second line', () => {
  const text = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.constantFrom(
      '<!channel>',
      '<!here|here>',
      '<https://evil.example|click>',
      '@everyone',
      '*bold*',
      'https://evil.example',
      ':joy:',
      '[x](https://evil.example)',
      '<@123>',
      '&lt;',
      '\r\nline',
      '\\[x\\]',
    ),
  );
  fc.assert(
    fc.property(text, (value) => {
      const message: ChatContent = { ...content, fields: [{ label: 'お名前', value }] };
      const slack = SlackBody.parse(chatPayload('https://hooks.slack.com/services/x', message));
      for (const shown of [slack.text, slack.blocks[1]!.fields![0]!.text]) {
        // Slack reads <…> as links and mentions, and & as the start of an entity: only its own escapes may appear.
        assert.doesNotMatch(shown, /[<>]|&(?!amp;|lt;|gt;)/);
      }
      const discord = DiscordBody.parse(chatPayload('https://discord.com/api/webhooks/1/x', message));
      const field = discord.embeds[0]!.fields[0]!.value;
      assert.doesNotMatch(field, /[\r\n\u2028\u2029]/);
      // Every markdown character is escaped: none is left once the escapes are taken out ('-' alone stands for an empty value).
      if (value !== '') assert.doesNotMatch(field.replace(/\\[\\*_~`|>[\]()#<:@-]/g, ''), /[\\*_~`|>[\]()#<:@-]/);
      assert.deepEqual(discord.allowed_mentions, { parse: [] });
    }),
    { seed: 20_261_122, numRuns: 500 },
  );
});
