import type { TErrorCode } from './errors';
import { normalizeTaiwanPostcode, toTaiwanPhone } from './outbound';

/**
 * The carriers' field rules for the sender and the receiver of a consignment, shared by the logistics provider form
 * (checked when saved), the server (checked before a consignment is asked for, per order) and the tests. The ECPay
 * rules are those its logistics SDK validates (`Ecpay.Logistic.Integration.php`: ValidateSenderName /
 * ValidateReceiverName, ValidateCellphoneNumber, ValidatePhoneNumber, ValidateZipCode, ValidateAddress 6–60) and its
 * manual states for `/Express/Create`; T-cat's are those of its EGS `PrintOBT` (names, a phone, an address).
 */

/** ECPay SenderName / ReceiverName: 2–5 CJK characters or 4–10 Latin letters, nothing else (no digits, spaces, symbols). */
export const ECPAY_NAME = /^([\u4e00-\u9fff\u3400-\u4dbf]{2,5}|[a-zA-Z]{4,10})$/u;
/** ECPay SenderCellPhone / ReceiverCellPhone. */
export const ECPAY_CELLPHONE = /^09\d{8}$/;
/** ECPay SenderPhone / ReceiverPhone: digits, #, ( ) and -. */
export const ECPAY_PHONE = /^[\d#()-]+$/;
/** ECPay SenderZipCode / ReceiverZipCode (HOME): 3 to 5 digits. */
export const ECPAY_ZIPCODE = /^\d{3,5}$/;
/** ECPay addresses (HOME): 6 to 60 characters. */
export const ECPAY_ADDRESS_MIN = 6;
export const ECPAY_ADDRESS_MAX = 60;
/** ECPay GoodsAmount and CollectionAmount: whole NT$ 1 to 20,000. */
export const ECPAY_AMOUNT_MIN = 1;
export const ECPAY_AMOUNT_MAX = 20000;

/** A name a marketplace masked for privacy (王*明, J***n): no carrier can deliver to it. */
export function isMaskedName(name: string): boolean {
  return /[*＊●○]/.test(name);
}

export interface TPartyIssue {
  /** sender_name, sender_phone, sender_postcode, sender_address, recipient_name, recipient_mobile… */
  field: string;
  code: TErrorCode;
}

export interface TParty {
  name: string;
  phone?: string | null;
  mobile?: string | null;
  postcode?: string | null;
  address?: string | null;
}

const chars = (s: string) => [...s].length;

/** A phone as ECPay takes it: the mobile (09 + 8 digits) in *CellPhone, any other number in *Phone. */
export function ecpayPhones(p: { phone?: string | null; mobile?: string | null }): { cell: string; phone: string } {
  const norm = (v?: string | null) => (v ? (toTaiwanPhone(v.trim()) ?? v.trim()) : '');
  const mobile = norm(p.mobile);
  const phone = norm(p.phone);
  const cell = ECPAY_CELLPHONE.test(mobile) ? mobile : ECPAY_CELLPHONE.test(phone) ? phone : '';
  const other = phone && phone !== cell ? phone : mobile && mobile !== cell ? mobile : '';
  return { cell, phone: other };
}

/**
 * The first rule the sender breaks for `carrier`, or null. `home`: ECPay home delivery (postcode and address
 * required); `c2cCellRequired`: ECPay UNIMARTC2C / HILIFEC2C (the sender's mobile is required).
 */
export function senderIssue(
  carrier: string | null | undefined,
  s: TParty,
  opts: { home?: boolean; c2cCellRequired?: boolean } = {},
): TPartyIssue | null {
  const name = (s.name ?? '').trim();
  const address = (s.address ?? '').trim();
  if (carrier === 'ecpay') {
    const home = opts.home ?? true;
    if (!name) return { field: 'sender_name', code: 'REQUIRED_FIELD' };
    if (!ECPAY_NAME.test(name)) return { field: 'sender_name', code: 'CARRIER_NAME_RULE' };
    const { cell, phone } = ecpayPhones(s);
    const typed = (s.phone ?? '').trim() || (s.mobile ?? '').trim();
    if (!typed) return { field: 'sender_phone', code: 'REQUIRED_FIELD' };
    // A Taiwan number (a 09 number is a whole mobile), then ECPay's own format.
    if (toTaiwanPhone(typed) === null || (!cell && !ECPAY_PHONE.test(phone)))
      return { field: 'sender_phone', code: 'CARRIER_PHONE_RULE' };
    if (opts.c2cCellRequired && !cell) return { field: 'sender_phone', code: 'CARRIER_CELLPHONE_RULE' };
    if (home) {
      const zip = normalizeTaiwanPostcode(s.postcode ?? '');
      if (!zip) return { field: 'sender_postcode', code: 'REQUIRED_FIELD' };
      if (!ECPAY_ZIPCODE.test(zip)) return { field: 'sender_postcode', code: 'CARRIER_POSTCODE_RULE' };
      if (!address) return { field: 'sender_address', code: 'REQUIRED_FIELD' };
      if (chars(address) < ECPAY_ADDRESS_MIN || chars(address) > ECPAY_ADDRESS_MAX)
        return { field: 'sender_address', code: 'CARRIER_ADDRESS_RULE' };
    }
    return null;
  }
  if (carrier === 'tcat') {
    if (!name) return { field: 'sender_name', code: 'REQUIRED_FIELD' };
    if (!(s.phone ?? '').trim() && !(s.mobile ?? '').trim()) return { field: 'sender_phone', code: 'REQUIRED_FIELD' };
    // T-cat finds the post number (SenderZipCode) from the address itself (ParsingAddress).
    if (!address) return { field: 'sender_address', code: 'REQUIRED_FIELD' };
    return null;
  }
  return null;
}

/** The first rule the receiver breaks for `carrier`, or null (masked names first: the fix differs). */
export function receiverIssue(
  carrier: string | null | undefined,
  r: TParty,
  opts: { home?: boolean } = {},
): TPartyIssue | null {
  const name = (r.name ?? '').trim();
  if (!name) return { field: 'recipient_name', code: 'REQUIRED_FIELD' };
  if (isMaskedName(name)) return { field: 'recipient_name', code: 'CARRIER_RECEIVER_MASKED' };
  if (carrier === 'ecpay') {
    const home = opts.home ?? true;
    if (!ECPAY_NAME.test(name)) return { field: 'recipient_name', code: 'CARRIER_NAME_RULE' };
    const { cell, phone } = ecpayPhones(r);
    // Home delivery takes a landline or a mobile; store pickup needs the mobile (the store texts the buyer).
    if (home ? !cell && !phone : !cell) return { field: 'recipient_mobile', code: 'CARRIER_CELLPHONE_RULE' };
    if (!cell && !ECPAY_PHONE.test(phone)) return { field: 'recipient_phone', code: 'CARRIER_PHONE_RULE' };
    if (home) {
      const zip = normalizeTaiwanPostcode(r.postcode ?? '');
      if (!ECPAY_ZIPCODE.test(zip)) return { field: 'recipient_postcode', code: 'CARRIER_POSTCODE_RULE' };
      const address = (r.address ?? '').trim();
      if (chars(address) < ECPAY_ADDRESS_MIN || chars(address) > ECPAY_ADDRESS_MAX)
        return { field: 'recipient_address', code: 'CARRIER_ADDRESS_RULE' };
    }
  }
  if (carrier === 'tcat') {
    // PrintOBT: RecipientTel or a RecipientMobile of 09 + 8 digits, and an address (T-cat routes by it).
    const { cell, phone } = ecpayPhones(r);
    if (!cell && !phone) return { field: 'recipient_phone', code: 'REQUIRED_FIELD' };
    if (!(r.address ?? '').trim()) return { field: 'recipient_address', code: 'REQUIRED_FIELD' };
  }
  if (carrier === 'tcat') {
    // PrintOBT: RecipientTel or a RecipientMobile of 09 + 8 digits, and an address (T-cat routes by it).
    const { cell, phone } = ecpayPhones(r);
    if (!cell && !phone) return { field: 'recipient_phone', code: 'REQUIRED_FIELD' };
    if (!(r.address ?? '').trim()) return { field: 'recipient_address', code: 'REQUIRED_FIELD' };
  }
  return null;
}
