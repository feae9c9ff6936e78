import { describe, expect, it } from 'vitest'
import { isSafeCssValue, themeStyle } from './theme'

describe('theme', () => {
  it('default: dark and light sets differ', () => {
    expect(themeStyle('dark', {})['--ws-background']).not.toBe(themeStyle('light', {})['--ws-background'])
  })

  it('behavior: host overrides are applied when safe and dropped otherwise', () => {
    const style = themeStyle('dark', {
      '--ws-accent': '#ff3366',
      '--ws-radius': '8px;} body{display:none',
      '--ws-background': 'url(https://evil.example/x.png)',
      ...({ '--not-allowed': 'red', color: 'red' } as object),
    })
    expect(style['--ws-accent']).toBe('#ff3366')
    expect(style['--ws-radius']).toBeUndefined()
    expect(style['--ws-background']).toBe(themeStyle('dark', {})['--ws-background'])
    expect(style).not.toHaveProperty('--not-allowed')
    expect(style).not.toHaveProperty('color')
  })

  it('isSafeCssValue', () => {
    expect(isSafeCssValue('rgba(0, 0, 0, 0.5)')).toBe(true)
    expect(isSafeCssValue('"Inter", sans-serif')).toBe(true)
    for (const bad of [
      'a;b',
      'a}',
      '<style>',
      'url(x)',
      'expression(alert(1))',
      '@import x',
      '/* x',
      'a\\62',
    ]) {
      expect(isSafeCssValue(bad)).toBe(false)
    }
  })
})
