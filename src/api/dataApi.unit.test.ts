import { describe, expect, it } from 'vitest'
import { safeImageUrl } from './dataApi'

// What needs no server; the client against the sandbox Data API is in test/integration/dataApi.test.ts.
describe('safeImageUrl', () => {
  it('keeps http(s) and bounded data:image URLs only', () => {
    expect(safeImageUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png')
    expect(safeImageUrl('data:image/svg+xml;base64,PHN2Zy8+')).toBe('data:image/svg+xml;base64,PHN2Zy8+')
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,x',
      'https://u:p@host.example/',
      42,
      undefined,
    ]) {
      expect(safeImageUrl(bad), String(bad)).toBeUndefined()
    }
    expect(safeImageUrl(`data:image/png;base64,${'A'.repeat(300_000)}`)).toBeUndefined()
  })
})
