import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './wait.ts';

export interface ReceivedMail {
  /** The SMTP envelope: who the server was asked to deliver to. */
  envelopeTo: string[];
  /** The message as sent, byte for byte. */
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  /** smtp://user:password@127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** Refuse the next `count` messages with a temporary failure (451), or with this reply (a 5xx is permanent). */
  failNext(count: number, reply?: { code: number; message: string }): void;
  /** Refuse this recipient at RCPT TO with this reply (a 5xx: the mailbox does not exist) until closed. */
  refuseRecipient(address: string, reply: { code: number; message: string }): void;
  waitForMails(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

const USER = 'tenpo';
const PASSWORD = 'smtp-secret-password';

/** A real SMTP server (smtp-server) on a free local port; mail is parsed with mailparser. Requires the login above. */
export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  let failures = 0;
  let failure = { code: 451, message: 'Try again later' };
  const refused = new Map<string, { code: number; message: string }>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo: (address, _session, callback) => {
      const reply = refused.get(address.address.toLowerCase());
      callback(reply ? Object.assign(new Error(reply.message), { responseCode: reply.code }) : undefined);
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (failures > 0) {
          failures -= 1;
          const error = Object.assign(new Error(failure.message), { responseCode: failure.code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks);
        mails.push({
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          raw: raw.toString('utf8'),
          parsed: await simpleParser(raw),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    mails,
    failNext: (count, reply = { code: 451, message: 'Try again later' }) => {
      failures = count;
      failure = reply;
    },
    refuseRecipient: (address, reply) => {
      refused.set(address.toLowerCase(), reply);
    },
    waitForMails: async (count, timeoutMs) => {
      await waitUntil(() => mails.length >= count, { timeoutMs, what: `${count} mail(s)` });
      return mails;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
