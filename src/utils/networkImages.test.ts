import { describe, expect, it } from 'vitest'
import { NETWORK_IMAGE_IDS, networkImageUrl } from './networkImages'

const ENDPOINTS = { walletsApi: 'https://wallets.example/' }

describe('SPEC §7 network icons use getAssetImage', () => {
  it("a known network's icon is the provider's asset image by its image id, with the SDK parameters", () => {
    const url = new URL(networkImageUrl(ENDPOINTS, 'p1', 'eip155:1')!)
    expect(url.origin + url.pathname).toBe(
      `https://wallets.example/public/getAssetImage/${NETWORK_IMAGE_IDS['eip155:1']}`,
    )
    expect(url.searchParams.get('projectId')).toBe('p1')
    expect(url.searchParams.get('st')).toBeTruthy()
    expect(url.searchParams.get('sv')).toBeTruthy()
  })

  it('the sandbox chains have theirs', () => {
    for (const caip of ['eip155:31337', 'eip155:31338'])
      expect(networkImageUrl(ENDPOINTS, 'p1', caip)).toContain('/public/getAssetImage/')
  })

  it("a network the provider has no image of, or a key of Object's prototype, has none (the view shows its initial)", () => {
    for (const caip of ['eip155:999999', 'constructor', '__proto__', 'toString', ''])
      expect(networkImageUrl(ENDPOINTS, 'p1', caip)).toBeUndefined()
  })
})
