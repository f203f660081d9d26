/** An amount of TWD as Taiwan writes it: NT$3,150 — the one formatter, shared with the server's mails. */
export { formatTwd as twd } from '@wms/contracts';
