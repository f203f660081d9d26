/** An amount of TWD as shown on the billing screens (whole dollars: the gateways charge integers). */
export const twd = (value: string | number): string => `NT$${Number(value)}`;
