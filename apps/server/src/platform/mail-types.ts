/** What a mail is and what sends one (apart from mail.ts, so the job queue can name a mailer without importing it). */

export interface TMail {
  to: string;
  subject: string;
  text: string;
  /** The text holds a password (registration, a reset by staff): its outbox file goes once the password is replaced. */
  carriesPassword?: boolean;
}

export interface TMailer {
  send(mail: TMail): Promise<{ file?: string; messageId?: string }>;
}
