/** An amount of TWD as Taiwan writes it: NT$3,150 (thousands grouped; cents only when there are any). */
export const twd = (value: string | number): string =>
  `NT$${Number(value).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
