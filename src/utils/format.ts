import { ADDRESS_TRUNCATE_END, ADDRESS_TRUNCATE_START } from '../constants'

/**
 * SPEC §9: an address shown as its first 4 and last 6 characters.
 *
 * @example
 * truncateAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // '0xf3...b92266'
 */
export function truncateAddress(address: string): string {
  if (address.length <= ADDRESS_TRUNCATE_START + ADDRESS_TRUNCATE_END + 3) return address
  return `${address.slice(0, ADDRESS_TRUNCATE_START)}...${address.slice(-ADDRESS_TRUNCATE_END)}`
}
