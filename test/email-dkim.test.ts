import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { dkimVerify } from 'mailauth';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DIALECTS, startTestApp } from './helpers/app.ts';
import { FAST_DISPATCH } from './helpers/email-app.ts';
import { startSmtpReceiver } from './helpers/smtp-receiver.ts';

// SMTP mail signed with DKIM, checked as a receiving mail server checks it: by mailauth's verifier,
// which reads the public key from the DNS TXT record the operations guide says to publish (here a
// resolver answering with the test's key), over the message exactly as the SMTP server received it.

const DOMAIN = 'tenpo.example';
const SELECTOR = 'tenpo2026';

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    // The TXT record of docs/operations.md#sender-authentication.
    record: `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  };
}

/** A DNS that knows only the selector's TXT record. */
const resolverFor = (record: string) => async (name: string, type: string) => {
  if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[record]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
};

for (const dialect of DIALECTS) {
  test(`SMTP mail is signed with the configured DKIM key and passes a verifier; a changed body fails it (${dialect})`, async () => {
    const { pem, record } = keyPair();
    const smtp = await startSmtpReceiver();
    const app = await startTestApp({
      dialect,
      env: {
        SMTP_URL: smtp.url,
        EMAIL_FROM: `tenpo <shop@${DOMAIN}>`,
        DKIM_DOMAIN: DOMAIN,
        DKIM_SELECTOR: SELECTOR,
        // As it fits on one line of .env: line breaks written \n.
        DKIM_PRIVATE_KEY: pem.trim().replaceAll('\n', '\\n'),
      },
      dispatcher: FAST_DISPATCH,
    });
    try {
      const response = await app.request('/api/reservation', {
        method: 'POST',
        body: JSON.stringify({ name: '山田 太郎', email: 'taro@example.com', productSlug: 'kumo-vco-2' }),
      });
      assert.equal(response.status, 200);
      const [mail] = await smtp.waitForMails(1);
      const verified = await dkimVerify(Buffer.from(mail!.raw), { resolver: resolverFor(record) });
      assert.equal(verified.results.length, 1);
      const [result] = verified.results;
      assert.equal(result!.status.result, 'pass', JSON.stringify(result!.status));
      assert.equal(result!.signingDomain, DOMAIN);
      assert.equal(result!.selector, SELECTOR);

      const tampered = mail!.raw.replace(/Kumo VCO II/, 'Kumo VCO III');
      assert.notEqual(tampered, mail!.raw);
      const refused = await dkimVerify(Buffer.from(tampered), { resolver: resolverFor(record) });
      assert.notEqual(refused.results[0]!.status.result, 'pass');
      const otherKey = await dkimVerify(Buffer.from(mail!.raw), { resolver: resolverFor(keyPair().record) });
      assert.equal(otherKey.results[0]!.status.result, 'fail', 'a key the domain does not publish');
    } finally {
      await app.close();
      await smtp.close();
    }
  });
}

test('DKIM is all three variables or none, and a key that does not parse stops the start with one line', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
    return [];
  };
  const { pem } = keyPair();
  assert.equal(loadConfig({}).email.dkim, undefined);
  assert.deepEqual(loadConfig({ DKIM_DOMAIN: DOMAIN, DKIM_SELECTOR: SELECTOR, DKIM_PRIVATE_KEY: pem }).email.dkim, {
    domain: DOMAIN,
    selector: SELECTOR,
    privateKey: pem.trim(),
  });
  assert.deepEqual(problems({ DKIM_DOMAIN: DOMAIN }), [
    'DKIM_SELECTOR is required when any of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY is set',
    'DKIM_PRIVATE_KEY is required when any of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY is set',
  ]);
  const secretLooking = '-----BEGIN PRIVATE KEY-----\\nnot-a-key-at-all\\n-----END PRIVATE KEY-----';
  const bad = problems({ DKIM_DOMAIN: DOMAIN, DKIM_SELECTOR: SELECTOR, DKIM_PRIVATE_KEY: secretLooking });
  assert.deepEqual(bad, ['DKIM_PRIVATE_KEY is not a PEM private key']);
  assert.deepEqual(problems({ DKIM_DOMAIN: 'not a domain', DKIM_SELECTOR: SELECTOR, DKIM_PRIVATE_KEY: pem }), [
    'DKIM_DOMAIN must be a domain name such as shop.example.jp (got "not a domain")',
  ]);
  assert.deepEqual(problems({ EMAIL_WEBHOOK_SECRET: 'secret' }), [
    'EMAIL_WEBHOOK_SECRET must be whsec_ followed by the base64 secret the provider shows',
  ]);
});
