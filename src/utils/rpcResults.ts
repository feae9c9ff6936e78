/*
 * SPEC §5's shapes of what a wallet answers: one check for every wallet the kit asks (the login frame's answers,
 * an injected or WalletConnect wallet's transaction hash, a sign-in signature), so a malformed answer is never
 * shown or kept as if valid.
 */

/**
 * SPEC §5: a transaction hash is 0x and 64 hex characters.
 *
 * @example
 * isTransactionHash(`0x${'ab'.repeat(32)}`) // true
 * isTransactionHash('0x12') // false
 */
export const isTransactionHash = (value: unknown): boolean =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{64}$/.test(value)

/**
 * SPEC §5: a signed message is 0x and 62 or more hex characters.
 *
 * @example
 * isSignature(`0x${'ab'.repeat(65)}`) // true
 * isSignature('0x') // false
 */
export const isSignature = (value: unknown): boolean =>
  typeof value === 'string' && /^0x[0-9a-fA-F]{62,}$/.test(value)
