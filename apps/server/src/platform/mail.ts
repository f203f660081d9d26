import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { TLanguage } from '@wms/contracts';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { Executor } from '../db/client';
import { decryptSecret, encryptSecret } from './crypto';
import { defineJob, type JobQueue } from './jobs';
import type { TMail, TMailer } from './mail-types';

export type { TMail, TMailer } from './mail-types';

/** SMTP when SMTP_URL is set; otherwise each mail becomes an .eml file in DATA_DIR/outbox/ (its path is logged). */
export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: { info(obj: object, msg: string): void };
}): TMailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        // Sent, not kept: with SMTP no copy of a mail (a password included) is written anywhere.
        const { carriesPassword: _, ...message } = mail;
        const info = await transport.sendMail({ from: opts.from, ...message });
        opts.log.info({ to: mail.to, messageId: info.messageId }, 'mail sent');
        return { messageId: info.messageId };
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const { carriesPassword, ...message } = mail;
      const info = await transport.sendMail({ from: opts.from, ...message });
      mkdirSync(outbox, { recursive: true });
      const kind = carriesPassword ? PASSWORD_MAIL_SUFFIX : '.eml';
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeAddress(mail.to)}${kind}`,
      );
      writeFileSync(file, info.message as Buffer);
      opts.log.info({ to: mail.to, file }, 'mail written to outbox');
      return { file };
    },
  };
}

const PASSWORD_MAIL_SUFFIX = '.password.eml';
const safeAddress = (to: string) => to.replace(/[^a-zA-Z0-9@._-]/g, '_');

/**
 * The user replaced a mailed password: the outbox files (no SMTP_URL) of mails to `to` that carried a password are
 * deleted, so the local mail folder keeps no working — or once working — password. Answers how many went.
 */
export function forgetPasswordMails(dataDir: string, to: string): number {
  const outbox = path.join(dataDir, 'outbox');
  const ending = `-${safeAddress(to.toLowerCase())}${PASSWORD_MAIL_SUFFIX}`;
  let files: string[];
  try {
    files = readdirSync(outbox);
  } catch {
    return 0;
  }
  const mine = files.filter((f) => f.toLowerCase().endsWith(ending));
  for (const f of mine) rmSync(path.join(outbox, f), { force: true });
  return mine.length;
}

type TTemplate = (vars: Record<string, string>) => { subject: string; text: string };

type TMailKind =
  | 'registered'
  | 'password_reset'
  | 'user_invite'
  | 'password_set_by_staff'
  | 'ticket_to_staff'
  | 'ticket_to_seller'
  | 'store_member'
  | 'billing_paid'
  | 'billing_failed'
  | 'billing_overdue';

const TEMPLATES: Record<TMailKind, Record<TLanguage, TTemplate>> = {
  /** Billing (renewal and payments): vars name, company, period, amount (formatted: NT$3,150), provider, reason, url. */
  billing_paid: {
    'zh-TW': (v) => ({
      subject: `WMS：已收到 ${v.period} 的款項`,
      text: `${v.name} 您好：\n\n${v.company} ${v.period} 的服務費 ${v.amount} 已透過 ${v.provider} 付款成功。\n交易紀錄與收據：${v.url}/billing\n`,
    }),
    ja: (v) => ({
      subject: `WMS：${v.period} のお支払いを受け付けました`,
      text: `${v.name} 様\n\n${v.company} の ${v.period} のご利用料金 ${v.amount} を ${v.provider} でお支払いいただきました。\n取引記録と領収書：${v.url}/billing\n`,
    }),
    en: (v) => ({
      subject: `WMS: payment received for ${v.period}`,
      text: `Hello ${v.name},\n\nThe fee of ${v.company} for ${v.period}, ${v.amount}, was paid through ${v.provider}.\nTransaction records and receipts: ${v.url}/billing\n`,
    }),
  },
  billing_failed: {
    'zh-TW': (v) => ({
      subject: `WMS：${v.period} 自動扣款失敗，將再重試`,
      text: `${v.name} 您好：\n\n${v.company} ${v.period} 的服務費 ${v.amount} 自動扣款失敗（${v.reason}）。系統會稍後自動重試；您也可以在 ${v.url}/billing 以其他方式付款。\n`,
    }),
    ja: (v) => ({
      subject: `WMS：${v.period} の自動引き落としに失敗しました（再試行します）`,
      text: `${v.name} 様\n\n${v.company} の ${v.period} のご利用料金 ${v.amount} の自動引き落としに失敗しました（${v.reason}）。後ほど自動的に再試行します。${v.url}/billing から別の方法でお支払いいただくこともできます。\n`,
    }),
    en: (v) => ({
      subject: `WMS: automatic payment for ${v.period} failed; it will be retried`,
      text: `Hello ${v.name},\n\nThe automatic payment of ${v.amount} for ${v.period} (${v.company}) failed (${v.reason}). It will be retried automatically; you can also pay another way at ${v.url}/billing\n`,
    }),
  },
  billing_overdue: {
    'zh-TW': (v) => ({
      subject: `WMS：${v.period} 的款項已逾期`,
      text: `${v.name} 您好：\n\n${v.company} ${v.period} 的服務費 ${v.amount} 多次扣款失敗（${v.reason}），帳戶已標示為逾期。您的資料不受影響，請至 ${v.url}/billing 付款。\n`,
    }),
    ja: (v) => ({
      subject: `WMS：${v.period} のお支払いが期限を過ぎています`,
      text: `${v.name} 様\n\n${v.company} の ${v.period} のご利用料金 ${v.amount} の引き落としが繰り返し失敗したため（${v.reason}）、アカウントを延滞としました。データには影響ありません。${v.url}/billing からお支払いください。\n`,
    }),
    en: (v) => ({
      subject: `WMS: payment for ${v.period} is overdue`,
      text: `Hello ${v.name},\n\nThe payment of ${v.amount} for ${v.period} (${v.company}) failed after every retry (${v.reason}); the account is marked overdue. Your data is not affected. Please pay at ${v.url}/billing\n`,
    }),
  },
  /** A store member's login (invitation or a password reset by the seller). */
  store_member: {
    'zh-TW': (v) => ({
      subject: `${v.store}：您的會員登入資訊`,
      text: `${v.name} 您好：\n\n${v.store} 的會員帳號已為您設定。\n公司（商店代碼）：${v.corp}\n登入帳號：${v.email}\n密碼：${v.password}\n\n請於 ${v.link} 登入，並於登入後修改密碼。\n`,
    }),
    ja: (v) => ({
      subject: `${v.store}：会員ログイン情報`,
      text: `${v.name} 様\n\n${v.store} の会員アカウントを設定しました。\n会社（ストアコード）：${v.corp}\nログインアカウント：${v.email}\nパスワード：${v.password}\n\n${v.link} からログインし、ログイン後にパスワードを変更してください。\n`,
    }),
    en: (v) => ({
      subject: `${v.store}: your member login`,
      text: `Hello ${v.name},\n\nYour member account of ${v.store} is ready.\nCorporation (store code): ${v.corp}\nLogin: ${v.email}\nPassword: ${v.password}\n\nLog in at ${v.link} and change the password after logging in.\n`,
    }),
  },
  registered: {
    'zh-TW': (v) => ({
      subject: '歡迎使用 WMS：您的登入密碼',
      text: `${v.name} 您好：\n\n${v.company} 的帳號已建立。\n登入帳號：${v.email}\n密碼：${v.password}\n\n請於 ${v.url}/login 登入，並於登入後修改密碼。\n`,
    }),
    ja: (v) => ({
      subject: 'WMS へようこそ：ログインパスワード',
      text: `${v.name} 様\n\n${v.company} のアカウントを作成しました。\nログインアカウント：${v.email}\nパスワード：${v.password}\n\n${v.url}/login からログインし、ログイン後にパスワードを変更してください。\n`,
    }),
    en: (v) => ({
      subject: 'Welcome to WMS: your password',
      text: `Hello ${v.name},\n\nThe account of ${v.company} has been created.\nLogin: ${v.email}\nPassword: ${v.password}\n\nLog in at ${v.url}/login and change the password after logging in.\n`,
    }),
  },
  password_reset: {
    'zh-TW': (v) => ({
      subject: 'WMS：重設密碼',
      text: `${v.name} 您好：\n\n我們收到重設密碼的請求。請於 ${v.minutes} 分鐘內開啟以下連結設定新密碼：\n${v.link}\n\n若非您本人提出，請忽略此信，您的密碼不會變更。\n`,
    }),
    ja: (v) => ({
      subject: 'WMS：パスワードの再設定',
      text: `${v.name} 様\n\nパスワード再設定のリクエストを受け付けました。${v.minutes} 分以内に次のリンクを開き、新しいパスワードを設定してください：\n${v.link}\n\nお心当たりがない場合はこのメールを無視してください。パスワードは変更されません。\n`,
    }),
    en: (v) => ({
      subject: 'WMS: reset your password',
      text: `Hello ${v.name},\n\nWe received a request to reset your password. Open this link within ${v.minutes} minutes to choose a new one:\n${v.link}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.\n`,
    }),
  },
  /** A seller's admin invites a user of the company (/users): a link to choose the password. */
  user_invite: {
    'zh-TW': (v) => ({
      subject: `WMS：${v.company} 邀請您加入`,
      text: `${v.name} 您好：\n\n${v.inviter} 邀請您以「${v.role}」身分使用 ${v.company} 的 WMS 帳號 ${v.email}。\n請於 ${v.days} 天內開啟以下連結設定密碼：\n${v.link}\n\n設定後請於 ${v.url}/login 登入。\n`,
    }),
    ja: (v) => ({
      subject: `WMS：${v.company} からの招待`,
      text: `${v.name} 様\n\n${v.inviter} さんが ${v.company} の WMS アカウント ${v.email}（ロール：${v.role}）にあなたを招待しました。\n${v.days} 日以内に次のリンクを開き、パスワードを設定してください：\n${v.link}\n\n設定後、${v.url}/login からログインしてください。\n`,
    }),
    en: (v) => ({
      subject: `WMS: ${v.company} invites you`,
      text: `Hello ${v.name},\n\n${v.inviter} invites you to the WMS account ${v.email} of ${v.company} as "${v.role}".\nOpen this link within ${v.days} days to choose your password:\n${v.link}\n\nThen log in at ${v.url}/login.\n`,
    }),
  },
  password_set_by_staff: {
    'zh-TW': (v) => ({
      subject: 'WMS：您的新密碼',
      text: `${v.name} 您好：\n\n客服人員已為 ${v.company} 的帳號 ${v.email} 重設密碼。\n新密碼：${v.password}\n\n請於 ${v.url}/login 登入，並於登入後修改密碼。\n`,
    }),
    ja: (v) => ({
      subject: 'WMS：新しいパスワード',
      text: `${v.name} 様\n\nサポート担当者が ${v.company} のアカウント ${v.email} のパスワードを再設定しました。\n新しいパスワード：${v.password}\n\n${v.url}/login からログインし、ログイン後にパスワードを変更してください。\n`,
    }),
    en: (v) => ({
      subject: 'WMS: your new password',
      text: `Hello ${v.name},\n\nThe support staff reset the password of ${v.email} (${v.company}).\nNew password: ${v.password}\n\nLog in at ${v.url}/login and change the password after logging in.\n`,
    }),
  },
  ticket_to_staff: {
    'zh-TW': (v) => ({
      subject: `WMS 客服：${v.company}「${v.subject}」`,
      text: `${v.company} 的 ${v.author} 寫道：\n\n${v.body}\n\n請至 ${v.url}/crm/board 處理。\n`,
    }),
    ja: (v) => ({
      subject: `WMS サポート：${v.company}「${v.subject}」`,
      text: `${v.company} の ${v.author} さんから：\n\n${v.body}\n\n${v.url}/crm/board で対応してください。\n`,
    }),
    en: (v) => ({
      subject: `WMS support: ${v.company} "${v.subject}"`,
      text: `${v.author} of ${v.company} wrote:\n\n${v.body}\n\nAnswer it at ${v.url}/crm/board\n`,
    }),
  },
  ticket_to_seller: {
    'zh-TW': (v) => ({
      subject: `WMS 客服回覆：「${v.subject}」`,
      text: `${v.name} 您好：\n\n客服人員回覆了您的問題「${v.subject}」：\n\n${v.body}\n\n請至 ${v.url}${v.path} 查看。\n`,
    }),
    ja: (v) => ({
      subject: `WMS サポートからの返信：「${v.subject}」`,
      text: `${v.name} 様\n\nお問い合わせ「${v.subject}」にサポート担当者が返信しました：\n\n${v.body}\n\n${v.url}${v.path} でご確認ください。\n`,
    }),
    en: (v) => ({
      subject: `WMS support answered: "${v.subject}"`,
      text: `Hello ${v.name},\n\nThe support staff answered "${v.subject}":\n\n${v.body}\n\nSee it at ${v.url}${v.path}\n`,
    }),
  },
};

export function renderMail(kind: keyof typeof TEMPLATES, lang: TLanguage, vars: Record<string, string>) {
  return TEMPLATES[kind][lang](vars);
}

/**
 * Mail goes out through the job queue: queued in the transaction that makes the reason for it (an account, a reset
 * token), sent after the commit, retried with back-off while SMTP is down. The text (a password, a reset link) is
 * stored encrypted with APP_SECRET_KEY in the job payload.
 */
export const mailDelivery = defineJob(
  'platform.mail',
  z.object({ to: z.string(), subject: z.string(), text_enc: z.string(), carries_password: z.boolean().optional() }),
  async ({ payload, services }) => {
    if (!services.mailer) throw new Error('no mailer configured for the job queue');
    const text = decryptSecret(services.config.encryptionKey, payload.text_enc);
    const sent = await services.mailer.send({
      to: payload.to,
      subject: payload.subject,
      text,
      ...(payload.carries_password ? { carriesPassword: true } : {}),
    });
    return { sent: true, ...sent };
  },
  { retryLimit: 8, retryDelaySeconds: 30 },
);

/** Queue one mail in the caller's transaction; call `jobs.kick(mailDelivery.name)` after the commit. */
export async function queueMail(jobs: JobQueue, ex: Executor, key: Buffer, mail: TMail): Promise<void> {
  await jobs.enqueue(
    ex,
    mailDelivery,
    {
      to: mail.to,
      subject: mail.subject,
      text_enc: encryptSecret(key, mail.text),
      ...(mail.carriesPassword ? { carries_password: true } : {}),
    },
    { customerId: null },
  );
}
