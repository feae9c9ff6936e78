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

/**
 * A token quantity for lists and balances (`locale`: in its digits and separators, e.g. '1234,5678' in German): at most `maxDecimals` decimals (cut, not rounded: never more than is
 * held), trailing zeros dropped. Exact: decimal strings, no floating point.
 *
 * @example
 * formatQuantity('1234.567890') // '1234.5678'
 * formatQuantity('2.50') // '2.5'
 */
export function formatQuantity(numeric: string, maxDecimals = 4, locale?: string): string {
  const [rawWhole = '0', fraction = ''] = numeric.trim().split('.')
  const negative = rawWhole.startsWith('-')
  const whole = (negative ? rawWhole.slice(1) : rawWhole).replace(/^0+(?=\d)/, '') || '0'
  const cut = fraction.slice(0, maxDecimals).replace(/0+$/, '')
  const text = cut ? `${whole}.${cut}` : whole
  const signed = negative && text !== '0' ? `-${text}` : text
  return locale ? localeDecimal(signed, locale, maxDecimals) : signed
}

/**
 * A decimal string in a locale's digits and separators (issue 18: amounts through `Intl`), exact: `Intl`
 * formats a decimal string without going through floating point. Not grouped, like the kit's quantities.
 *
 * @example
 * localeDecimal('1234.5', 'de') // '1234,5'
 */
export function localeDecimal(decimal: string, locale: string, maxDecimals?: number): string {
  // Without `maxDecimals`, every decimal written is kept ('1.50' stays '1.50').
  const kept = maxDecimals ?? (decimal.split('.')[1] ?? '').length
  const digits = Math.min(Math.max(kept, 0), 100)
  const format = new Intl.NumberFormat(locale, {
    minimumFractionDigits: maxDecimals === undefined ? digits : 0,
    maximumFractionDigits: digits,
    useGrouping: false,
  })
  return Number.isNaN(Number(decimal)) ? decimal : format.format(decimal as unknown as number)
}
