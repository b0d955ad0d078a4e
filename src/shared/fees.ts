// The withdrawal handling fee, one function for the server (what is charged) and the client (what the
// confirm screen shows). `limits` is baseconfig's `limits` object, so the client passes it as it is.

export interface WithdrawalFeeLimits {
  withdraw_fee: number; // fixed cents per withdrawal
  withdraw_fee_bp: number; // basis points of the amount, rounded down to the cent
}

/** fee = fixed + floor(amount x bp / 10000), in integer cents, without overflowing for any safe amount. */
export function withdrawalFee(amount: number, limits: WithdrawalFeeLimits): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`not integer cents: ${amount}`);
  const bp = limits.withdraw_fee_bp;
  // amount = q x 10000 + r, so amount x bp / 10000 = q x bp + r x bp / 10000 (no product above 10^4 x 10^4 per part).
  const q = Math.floor(amount / 10_000);
  const r = amount % 10_000;
  return limits.withdraw_fee + q * bp + Math.floor((r * bp) / 10_000);
}

// The marketplace's money rules, one copy for the server (what is charged and paid) and the client (what
// the order screens preview). Integer cents, whole tons, basis points; rounded half up.

/** Booking fee of a pre-sale: round(tons x pre-sale price x fee bp / 10000), half up. */
export function bookingFee(tons: number, presalePrice: number, feeBp: number): number {
  return Math.round((tons * presalePrice * feeBp) / 10_000);
}

/** The platform's standing buy-back price per ton (docs/product.md#projects): price x (1 + yield), half up. */
export function buybackPrice(price: number, yieldBp: number): number {
  return Math.round((price * (10_000 + yieldBp)) / 10_000);
}

/** Sale proceeds: tons x buy-back price. */
export function saleProceeds(tons: number, price: number, yieldBp: number): number {
  return tons * buybackPrice(price, yieldBp);
}
