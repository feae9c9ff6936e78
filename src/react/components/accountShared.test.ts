import { describe, expect, it } from 'vitest'
import { formatQuantity, formatTransferAmount, formatUsd } from './accountShared'

describe('formatQuantity', () => {
  it('default: at most 4 decimals, cut (never more than is held), trailing zeros dropped', () => {
    expect(formatQuantity('1234.567890')).toBe('1234.5678')
    expect(formatQuantity('0.99999')).toBe('0.9999')
    expect(formatQuantity('2.50')).toBe('2.5')
    expect(formatQuantity('1000')).toBe('1000')
    expect(formatQuantity('1000.00001')).toBe('1000')
    expect(formatQuantity('007.1')).toBe('7.1')
  })

  it('parameters: maxDecimals', () => {
    expect(formatQuantity('0.000042000000000001', 8)).toBe('0.000042')
    expect(formatQuantity('1.23456', 0)).toBe('1')
  })

  it('behavior: exact for amounts beyond floating point', () => {
    expect(formatQuantity('123456789012345678901234.123456789')).toBe('123456789012345678901234.1234')
    expect(formatQuantity('-1.50')).toBe('-1.5')
    expect(formatQuantity('-0.00001')).toBe('0')
  })
})

describe('formatTransferAmount', () => {
  it('SPEC §9: transfers display 3 decimals', () => {
    expect(formatTransferAmount('1.5')).toBe('1.500')
    expect(formatTransferAmount('0.01')).toBe('0.010')
    expect(formatTransferAmount('1234.56789')).toBe('1,234.568')
    expect(formatTransferAmount('not a number')).toBe('not a number')
  })
})

describe('formatUsd', () => {
  it('dollars and cents', () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(1234.5)).toBe('$1,234.50')
    expect(formatUsd(Number.NaN)).toBe('$0.00')
  })
})
