/**
 * The support desk: tickets and replies between sellers and staff, announcements and their acknowledgements. Owns
 * support_tickets, support_replies, announcements, announcement_targets and announcement_acks.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { answerTicketIn, createTicket, createTicketIn } from './support.service';
