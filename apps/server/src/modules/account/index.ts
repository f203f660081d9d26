/**
 * The seller account: sign-up of a seller (a customer and its first user), the user's own profile, password
 * change and reset, two-step sign-in set-up. Owns the tables customers, users (its writes on them) and
 * password_resets.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export {
  companyContact,
  customerName,
  findCustomer,
  hasAnyUser,
  insertCustomer,
  insertPasswordReset,
  insertUser,
  lockCustomer,
  type TCustomerRow,
  updateCustomer,
  updateUser,
} from './account.repository';
export { changeCustomerActive, setPasswordByStaff } from './account.service';
