/** What the pay-from-balance button may do with the price the server quoted last. */
export type PayReadiness =
  | { kind: 'ready' }
  /** No price for this choice yet (asking, or the server refused to price it): nothing to pay. */
  | { kind: 'unpriced' }
  /** The balance does not cover the price: `missing` cents, so the button stays off and links to recharge. */
  | { kind: 'short'; missing: number };

/**
 * Whether a payment may be sent: only for a price the server quoted for the current choice and the
 * balance covers, so a payment that must fail with 402 is never sent.
 */
export const payReadiness = (
  quote: ({ balance: number } & ({ amount: number } | { price: number })) | undefined,
  loading: boolean,
): PayReadiness => {
  if (!quote || loading) return { kind: 'unpriced' };
  const price = 'amount' in quote ? quote.amount : quote.price;
  return quote.balance < price ? { kind: 'short', missing: price - quote.balance } : { kind: 'ready' };
};
