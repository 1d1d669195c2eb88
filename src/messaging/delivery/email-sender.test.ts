import assert from 'node:assert/strict';
import { test } from 'node:test';
import { headerSafe } from './email-sender.ts';

test('addresses, subject and extra headers cannot start a new header line', () => {
  const safe = headerSafe({
    from: 'tenpo <shop@example.com>\r\nBcc: a@example.com',
    to: 'taro@example.com\nCc: b@example.com',
    subject: 'ご予約\r\nBcc: c@example.com',
    text: 'line 1\nline 2',
    html: '<p>x</p>',
    headers: { 'List-Unsubscribe': '<https://shop.example/u?t=1>\r\nBcc: d@example.com', 'X-Bad\r\nName: x': 'v' },
  });
  for (const value of [safe.from, safe.to, safe.subject, ...Object.keys(safe.headers!), ...Object.values(safe.headers!)]) {
    assert.doesNotMatch(value, /[\r\n]/);
  }
  assert.equal(safe.subject, 'ご予約 Bcc: c@example.com');
  assert.deepEqual(Object.keys(safe.headers!), ['List-Unsubscribe', 'X-BadNamex']);
  assert.equal(safe.text, 'line 1\nline 2', 'bodies keep their lines');
});
