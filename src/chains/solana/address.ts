/*
 * Solana addresses, pure (no web3.js): a public key is 32 bytes written in base58.
 */

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const BASE58_TEXT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * Whether `value` is a Solana public key in base58: 32 to 44 base58 characters that decode to exactly 32 bytes.
 *
 * @example isSolanaAddress('11111111111111111111111111111111') // true (the system program)
 * isSolanaAddress('0x70997970C51812dc3A010C7d01b50e0d17dc79C8') // false
 */
export function isSolanaAddress(value: unknown): value is string {
  if (typeof value !== 'string' || !BASE58_TEXT.test(value)) return false
  // Each leading '1' is a zero byte; the rest is a base-58 number whose bytes follow.
  const zeros = value.length - value.replace(/^1+/, '').length
  let number = 0n
  for (const char of value.slice(zeros)) number = number * 58n + BigInt(BASE58.indexOf(char))
  const bytes = number === 0n ? 0 : Math.ceil(number.toString(16).length / 2)
  return zeros + bytes === 32
}
