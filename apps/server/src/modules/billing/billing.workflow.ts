import { BILLING_PERIOD_MONTHS, type TBillingPeriod } from '@wms/contracts';

/** Pure rules of billing: periods of a contract, the amount of a period, what is due. No database, no clock. */

/** `day` plus whole months; a day past the month's end falls on its last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

export function addDays(day: string, days: number): string {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** Period n (from 0) of a contract starting on `start`: always counted from the start, so month ends never drift. */
export function periodAt(start: string, period: TBillingPeriod, n: number): { start: string; end: string } {
  const months = BILLING_PERIOD_MONTHS[period];
  return { start: addMonths(start, n * months), end: addDays(addMonths(start, (n + 1) * months), -1) };
}

/** The period `day` falls in, or null before the contract starts. */
export function periodOn(start: string, period: TBillingPeriod, day: string): { start: string; end: string } | null {
  if (day < start) return null;
  for (let n = 0; n < 10_000; n++) {
    const p = periodAt(start, period, n);
    if (day <= p.end) return p;
  }
  return null;
}

/**
 * What can be paid on `today`: the first period without a successful payment — overdue when its start has passed,
 * due on its start when it is the period right after today's. Null before the contract starts, and when every period
 * up to the next one is paid (nothing to pay now: a periodic charge then is the seller's credit). Never a paid one.
 */
export function duePeriod(
  start: string,
  period: TBillingPeriod,
  today: string,
  paidStarts: ReadonlySet<string>,
): { start: string; end: string; overdue: boolean } | null {
  if (today < start) return null;
  for (let n = 0; n < 10_000; n++) {
    const p = periodAt(start, period, n);
    if (paidStarts.has(p.start)) continue;
    if (p.start <= today) return { ...p, overdue: p.start < today };
    // A future period: payable ahead only when it follows the period today falls in.
    const current = periodOn(start, period, today);
    return current && addDays(current.end, 1) === p.start ? { ...p, overdue: false } : null;
  }
  return null;
}

/** The end of the unbroken run of paid periods from the start (null: the first period is unpaid). */
export function paidThrough(start: string, period: TBillingPeriod, paidStarts: ReadonlySet<string>): string | null {
  let through: string | null = null;
  for (let n = 0; n < 10_000; n++) {
    const p = periodAt(start, period, n);
    if (!paidStarts.has(p.start)) break;
    through = p.end;
  }
  return through;
}

/** How a period is named in messages: "2026-01-01 ~ 2026-03-31". */
export const periodText = (p: { start: string; end: string }) => `${p.start} ~ ${p.end}`;

/** A decimal string as an integer of ten-thousandths (no float anywhere). */
function units(value: string): bigint {
  const [int = '0', frac = ''] = value.replace(/^-/, '').split('.');
  const v = BigInt(int) * 10_000n + BigInt(`${frac}0000`.slice(0, 4));
  return value.startsWith('-') ? -v : v;
}

/** Round ten-thousandths (or 10^8ths) half up to whole TWD. */
const roundTo = (v: bigint, scale: bigint) => (v + scale / 2n) / scale;

/**
 * The amount of one period in whole TWD, as the gateways take it: price rounded, plus the tax (price × rate, rounded
 * half up). Decimal strings in, integers out.
 */
export function periodAmount(price: string, taxRate: string): { net: number; tax: number; total: number } {
  const p = units(price);
  const net = roundTo(p, 10_000n);
  const tax = roundTo(p * units(taxRate), 100_000_000n);
  return { net: Number(net), tax: Number(tax), total: Number(net + tax) };
}

/** Our order number at the gateways: ≤ 30 of `[A-Za-z0-9_]`, unique (NewebPay MerchantOrderNo, TapPay order_number). */
export function newOrderNumber(now: Date, random: string): string {
  const t = new Date(now.getTime() + 8 * 3600_000).toISOString();
  return `B${t.slice(2, 4)}${t.slice(5, 7)}${t.slice(8, 10)}${t.slice(11, 13)}${t.slice(14, 16)}${t.slice(17, 19)}_${random}`.slice(
    0,
    30,
  );
}
