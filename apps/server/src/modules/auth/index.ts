/**
 * Sign-in of staff, sellers and store members: passwords and one-time codes, failed-attempt guard, refresh tokens
 * and their revocation. Owns login_attempts and refresh_tokens; reads users, stores and store_members to sign in.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { consumeTotpStep, findUserByEmail, findUserById, revokeAllForSubject, type TUserRow } from './auth.repository';
export { guardAttempt, memberProfileOf } from './auth.service';
