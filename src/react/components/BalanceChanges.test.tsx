import { renderToStaticMarkup } from 'react-dom/server'
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createTranslate } from '../i18n'
import english from '../locales/en.views.json'
import { BalanceChangesList } from './BalanceChanges'

// Issue 33 "See before you sign": the preview's line of simulated balance changes, signed with their symbols;
// no line at all when the node could not simulate (never a false one).
const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const eth = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee' as Address

const t = createTranslate(english)

describe('BalanceChanges', () => {
  it('lists each change as a signed amount with its symbol, under a labelled heading', () => {
    const html = renderToStaticMarkup(
      <dl>
        <BalanceChangesList
          t={t}
          changes={[
            { token: eth, symbol: 'ETH', decimals: 18, delta: 33_100_000_000_000_000n },
            { token: usdc, symbol: 'USDC', decimals: 6, delta: -100_000_000n },
          ]}
        />
      </dl>,
    )
    expect(html).toContain('<dt id="ws-balance-changes">Balance changes</dt>')
    expect(html).toContain('aria-labelledby="ws-balance-changes"')
    expect([...html.matchAll(/<li[^>]*>([^<]*)<\/li>/g)].map((m) => m[1])).toEqual([
      '+0.0331 ETH',
      '\u2212100 USDC',
    ])
  })

  it('renders nothing without a simulation, and says so while it runs', () => {
    expect(renderToStaticMarkup(<BalanceChangesList t={t} changes={undefined} />)).toBe('')
    expect(renderToStaticMarkup(<BalanceChangesList t={t} changes={undefined} simulating />)).toContain(
      'Simulating',
    )
  })
})
