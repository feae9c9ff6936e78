import { afterEach, describe, expect, it, vi } from 'vitest'
import { browserMobileSignals, isMobileBrowser } from './mobile'

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36'
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15'
const LINUX_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

describe('isMobileBrowser', () => {
  it('phones and tablets by their user agent', () => {
    expect(isMobileBrowser({ userAgent: IPHONE })).toBe(true)
    expect(isMobileBrowser({ userAgent: ANDROID })).toBe(true)
    expect(isMobileBrowser({ userAgent: ANDROID_TABLET, userAgentDataMobile: false })).toBe(true)
  })

  it("the browser's client hint", () => {
    expect(isMobileBrowser({ userAgent: LINUX_CHROME, userAgentDataMobile: true })).toBe(true)
    expect(isMobileBrowser({ userAgent: LINUX_CHROME, userAgentDataMobile: false })).toBe(false)
  })

  it('a finger on a narrow screen, not a mouse in a narrow window', () => {
    expect(isMobileBrowser({ userAgent: IPAD_DESKTOP_MODE, coarsePointer: true, width: 375 })).toBe(true)
    expect(isMobileBrowser({ userAgent: LINUX_CHROME, coarsePointer: false, width: 375 })).toBe(false)
    expect(isMobileBrowser({ userAgent: IPAD_DESKTOP_MODE, coarsePointer: true, width: 1366 })).toBe(false)
  })

  it('desktop browsers and a server are not mobile', () => {
    expect(isMobileBrowser({ userAgent: LINUX_CHROME })).toBe(false)
    expect(isMobileBrowser({ userAgent: IPAD_DESKTOP_MODE, width: 800 })).toBe(false)
    expect(isMobileBrowser({})).toBe(false)
  })
})

describe('browserMobileSignals', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('reads the user agent, the client hint, the pointer and the width', () => {
    vi.stubGlobal('navigator', { userAgent: IPHONE, userAgentData: { mobile: true } })
    vi.stubGlobal('window', {
      innerWidth: 375,
      matchMedia: (query: string) => ({ matches: query === '(pointer: coarse)' }),
    })
    expect(browserMobileSignals()).toEqual({
      userAgent: IPHONE,
      userAgentDataMobile: true,
      coarsePointer: true,
      width: 375,
    })
  })

  it('says nothing without a browser', () => {
    vi.stubGlobal('navigator', undefined)
    vi.stubGlobal('window', undefined)
    expect(browserMobileSignals()).toEqual({})
  })
})
