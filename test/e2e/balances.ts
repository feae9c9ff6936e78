import type { Page } from 'playwright-core'
import { type Address, erc20Abi, formatUnits, type PublicClient } from 'viem'

/*
 * Balances as the visitor should see them, computed here from the chain (never read back from the kit), and as the
 * Account view's Tokens tab shows them: the e2e files that compare the two share these.
 */

/** A quantity as the kit shows it: at most `max` decimals, cut (not rounded), trailing zeros dropped. */
export function shownQuantity(raw: bigint, decimals: number, max = 4): string {
  const [whole, fraction = ''] = formatUnits(raw, decimals).split('.')
  const cut = fraction.slice(0, max).replace(/0+$/, '')
  return cut ? `${whole}.${cut}` : whole!
}

/** What the chain holds for `account`: ETH and each of `tokens`, symbol → quantity as shown. */
export async function chainBalances(
  client: Pick<PublicClient, 'getBalance' | 'readContract'>,
  tokens: readonly { address: Address; symbol: string; decimals: number }[],
  account: Address,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {
    ETH: shownQuantity(await client.getBalance({ address: account }), 18),
  }
  for (const token of tokens) {
    const raw = await client.readContract({
      address: token.address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account],
    })
    out[token.symbol] = shownQuantity(raw, token.decimals)
  }
  return out
}

/** The Account view's Tokens tab as shown, symbol → quantity. */
export async function tokensTab(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const row of await page.locator('[data-view="Account"]').getByTestId('token-balance').all()) {
    const symbol = (await row.getAttribute('data-symbol')) ?? ''
    const text = (await row.getByTestId('token-quantity').textContent()) ?? ''
    out[symbol] = text.split(' ')[0] ?? ''
  }
  return out
}
