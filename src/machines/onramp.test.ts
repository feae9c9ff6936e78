import { describe, expect, it } from 'vitest'
import { createActor, fromCallback, fromPromise } from 'xstate'
import {
  formatFiatLimit,
  OnrampAbandonedError,
  OnrampAmountOutOfRangeError,
  OnrampPurchaseFailedError,
  OnrampTimeoutError,
  onrampErrorInfo,
  toOnrampError,
} from '../errors/onramp'
import { isOnrampRestricted } from '../utils/onrampRegion'
import { mockQuote, ONRAMP_PROVIDERS, sampleOnrampOptions } from '../utils/onrampSamples'
import {
  normaliseFiatAmount,
  type OnrampContext,
  type OnrampOptions,
  type OnrampOrder,
  type OnrampQuote,
  onrampLimitsOf,
  onrampMachine,
  selectOnrampAsset,
  selectOnrampStatus,
  validateOnrampAmount,
} from './onramp'
import {
  confirmedOrder,
  networkChainId,
  newOrders,
  optionsFor,
  orderFailed,
  pickPurchase,
  purchasesRequestOf,
  urlRequestOf,
} from './onramp/rules'

// The Buy flow's rules and texts; its paths are replayed in test/model-based/onramp.test.ts.

const form = (over: Partial<OnrampContext> = {}) =>
  ({
    options: sampleOnrampOptions(8453),
    paymentCurrency: 'USD',
    paymentMethod: 'card',
    amount: '',
    ...over,
  }) as Pick<OnrampContext, 'options' | 'paymentCurrency' | 'paymentMethod' | 'amount'>

describe('onramp amounts and limits (SPEC §9)', () => {
  it('normalises fiat amounts to two decimals and refuses anything else', () => {
    expect(normaliseFiatAmount('50')).toBe('50.00')
    expect(normaliseFiatAmount(' 50.5 ')).toBe('50.50')
    expect(normaliseFiatAmount('50.')).toBe('50.00')
    expect(normaliseFiatAmount('.5')).toBe('0.50')
    expect(normaliseFiatAmount('007500.01')).toBe('7500.01')
    for (const bad of [
      '',
      '.',
      '0',
      '0.00',
      '-1',
      '1e3',
      '1,000',
      '10.001',
      'NaN',
      'Infinity',
      '１０',
      '1'.repeat(13),
    ])
      expect(normaliseFiatAmount(bad), bad).toBeUndefined()
  })

  it('takes the limits of the payment currency and method: the options’, else the SPEC’s', () => {
    expect(onrampLimitsOf(form())).toEqual({ min: '10.00', max: '7500.00', currency: 'USD' })
    expect(onrampLimitsOf(form({ paymentCurrency: 'EUR', paymentMethod: 'ach_bank_account' }))).toEqual({
      min: '10.00',
      max: '25000.00',
      currency: 'EUR',
    })
    const own: OnrampOptions = {
      ...sampleOnrampOptions(),
      paymentCurrencies: [{ id: 'USD', payment_method_limits: [{ id: 'card', min: '20', max: '500' }] }],
    }
    expect(onrampLimitsOf(form({ options: own }))).toEqual({ min: '20', max: '500', currency: 'USD' })
    // No limit for the bank account in the options: the SPEC's fallback.
    expect(onrampLimitsOf(form({ options: own, paymentMethod: 'ach_bank_account' }))).toEqual({
      min: '10.00',
      max: '25000.00',
      currency: 'USD',
    })
    expect(onrampLimitsOf(form({ options: undefined, paymentCurrency: 'GBP' }))).toMatchObject({
      currency: 'GBP',
    })
  })

  it('checks the boundaries exactly, card and bank account, USD and EUR', () => {
    const check = (amount: string, over: Partial<OnrampContext> = {}) =>
      validateOnrampAmount(form({ amount, ...over }))?.shortMessage
    expect(check('')).toBeUndefined()
    expect(check('10')).toBeUndefined()
    expect(check('7500.00')).toBeUndefined()
    expect(check('9.99')).toBe('Enter an amount between 10.00 and 7,500.00 USD')
    expect(check('7500.01')).toBe('Enter an amount between 10.00 and 7,500.00 USD')
    expect(check('25000', { paymentMethod: 'ach_bank_account' })).toBeUndefined()
    expect(check('25000.01', { paymentMethod: 'ach_bank_account', paymentCurrency: 'EUR' })).toBe(
      'Enter an amount between 10.00 and 25,000.00 EUR',
    )
    expect(check('abc')).toBe('Enter an amount between 10.00 and 7,500.00 USD')
    const error = validateOnrampAmount(form({ amount: '5' }))
    expect(error).toBeInstanceOf(OnrampAmountOutOfRangeError)
    expect(error).toMatchObject({
      name: 'OnrampAmountOutOfRangeError',
      min: '10.00',
      max: '7500.00',
      currency: 'USD',
    })
  })

  it('formats limits as people read them', () => {
    expect(formatFiatLimit('7500')).toBe('7,500.00')
    expect(formatFiatLimit('25000.5')).toBe('25,000.50')
    expect(formatFiatLimit('1234567.89')).toBe('1,234,567.89')
    expect(formatFiatLimit('0010.00')).toBe('10.00')
    expect(formatFiatLimit('n/a')).toBe('n/a')
  })
})

describe('onramp purchase rules', () => {
  const options = sampleOnrampOptions(8453)

  it('starts with USDC on the account’s network, else another currency there, else the first network', () => {
    expect(pickPurchase(options, 'USDC', 8453)).toEqual({ purchaseCurrency: 'USDC', chainId: 8453 })
    expect(pickPurchase(options, 'ETH', 10)).toEqual({ purchaseCurrency: 'ETH', chainId: 10 })
    // ETH is not sampled on Polygon: USDC there.
    expect(pickPurchase(options, 'ETH', 137)).toEqual({ purchaseCurrency: 'USDC', chainId: 137 })
    // A network the samples do not know: the first of the currency asked for.
    expect(pickPurchase(options, 'USDC', 999)).toEqual({ purchaseCurrency: 'USDC', chainId: 8453 })
  })

  it('takes as the purchase only an order that was not there before the window opened', () => {
    const old = { id: 'a', status: 'confirmed' as const, amount: '1', symbol: 'USDC', hash: '' }
    const fresh = { id: 'b', status: 'confirmed' as const, amount: '2', symbol: 'USDC', hash: '' }
    const failed = { id: 'c', status: 'failed' as const, amount: '2', symbol: 'USDC', hash: '' }
    const context = { baseline: ['a'] }
    expect(newOrders(context, [fresh, old])).toEqual([fresh])
    expect(confirmedOrder(context, [old])).toBeUndefined()
    expect(confirmedOrder(context, [failed, fresh, old])).toBe(fresh)
    expect(orderFailed(context, [failed, old])).toBe(true)
    expect(orderFailed(context, [failed, fresh])).toBe(false)
    expect(orderFailed({ baseline: ['c'] }, [failed])).toBe(false)
  })
})

describe('onramp samples (SPEC §8)', () => {
  it('hold the two providers within the SPEC’s 1–2 % fees', () => {
    expect(ONRAMP_PROVIDERS).toEqual([
      { id: 'coinbase', name: 'Coinbase', feePercent: 1 },
      { id: 'meld', name: 'Meld', feePercent: 1.9 },
    ])
    expect(sampleOnrampOptions().providers).toEqual(ONRAMP_PROVIDERS)
  })

  it('put the account’s network first and name the sandbox chain as the sandbox does', () => {
    expect(sampleOnrampOptions(10).purchaseCurrencies[0]!.networks[0]!.name).toBe('optimism')
    const sandbox = sampleOnrampOptions(31337).purchaseCurrencies[0]!.networks[0]!
    expect(sandbox).toMatchObject({
      name: 'walletstate-sandbox',
      display_name: 'Walletstate Sandbox',
      chain_id: '31337',
    })
    expect(sampleOnrampOptions().paymentCurrencies.map((c) => c.id)).toEqual(['USD', 'EUR'])
  })

  it('mock a quote from the fee and the sample prices, rounding the purchase down', () => {
    const [coinbase, meld] = ONRAMP_PROVIDERS
    const request = {
      purchaseCurrency: 'USDC',
      paymentCurrency: 'USD',
      amount: '10.01',
      network: 'base',
      provider: 'meld',
      paymentMethod: 'card' as const,
    }
    expect(mockQuote(request, meld!)).toEqual({
      quoteId: 'estimate:meld:USDC:USD:10.01',
      paymentTotal: { amount: '10.01', currency: 'USD' },
      // 10.01 × 1.9 % = 0.19019: 0.19
      fee: { amount: '0.19', currency: 'USD' },
      paymentSubtotal: { amount: '9.82', currency: 'USD' },
      purchaseAmount: { amount: '9.82', currency: 'USDC' },
    })
    // 7500 - 75 = 7425 USD ÷ 3000 = 2.475 ETH
    expect(
      mockQuote({ ...request, purchaseCurrency: 'ETH', amount: '7500' }, coinbase!)?.purchaseAmount,
    ).toEqual({
      amount: '2.475',
      currency: 'ETH',
    })
    // 20.20 - 0.20 = 20.00 USD ÷ 3000 = 0.0066666… ETH: rounded down at 8 decimals, never up.
    expect(
      mockQuote({ ...request, purchaseCurrency: 'ETH', amount: '20.20' }, coinbase!)?.purchaseAmount,
    ).toEqual({
      amount: '0.00666666',
      currency: 'ETH',
    })
    expect(mockQuote({ ...request, purchaseCurrency: 'CBBTC' }, coinbase!)).toBeUndefined()
    expect(mockQuote({ ...request, paymentCurrency: 'GBP' }, coinbase!)).toBeUndefined()
    expect(mockQuote({ ...request, amount: '1e3' }, coinbase!)).toBeUndefined()
    expect(mockQuote(request, { ...coinbase!, feePercent: Number.NaN })).toBeUndefined()
  })
})

describe('onramp errors', () => {
  it('say what happened and what to do', () => {
    expect(new OnrampPurchaseFailedError().message).toMatchInlineSnapshot(`"The purchase failed"`)
    expect(new OnrampAbandonedError().message).toMatchInlineSnapshot(`"The purchase was not completed"`)
    expect(new OnrampTimeoutError({ timeoutMs: 15 * 60 * 1000 }).message).toMatchInlineSnapshot(`
      "The purchase did not complete in time. Check your activity before trying again.

      Details: No completed order after 15 min"
    `)
  })

  it('map unknown failures by stage and keep the kit’s own', () => {
    expect(toOnrampError(new Error('boom'), 'options').name).toBe('OnrampOptionsError')
    expect(toOnrampError(new Error('boom'), 'quote').name).toBe('OnrampQuoteError')
    expect(toOnrampError(new Error('boom'), 'url').name).toBe('OnrampUrlError')
    expect(toOnrampError(new Error('boom'), 'open').name).toBe('OnrampUrlError')
    expect(toOnrampError('boom', 'purchases').name).toBe('OnrampPurchasesError')
    const own = new OnrampAbandonedError()
    expect(toOnrampError(own, 'url')).toBe(own)
    expect(onrampErrorInfo(new Error('HTTP 500'), 'purchases')).toEqual({
      name: 'OnrampPurchasesError',
      message: 'Unable to check your purchases. Try again.',
      details: 'HTTP 500',
    })
  })
})

describe('onramp restricted time zones (SPEC §9)', () => {
  it('hides Buy in the China region only', () => {
    for (const zone of ['Asia/Shanghai', 'Asia/Urumqi', 'Asia/Chongqing', 'Asia/Harbin', 'Asia/Kashgar'])
      expect(isOnrampRestricted(zone), zone).toBe(true)
    for (const zone of ['Asia/Macau', 'Asia/Macao', 'Asia/Hong_Kong', ' asia/shanghai '])
      expect(isOnrampRestricted(zone), zone).toBe(true)
    for (const zone of ['Asia/Tokyo', 'Asia/Taipei', 'Europe/Berlin', 'UTC', '', 'Shanghai', undefined, 8])
      expect(isOnrampRestricted(zone), String(zone)).toBe(false)
  })
})

describe('onramp machine slots', () => {
  it('names the slot that was not provided', async () => {
    const actor = createActor(onrampMachine, {
      input: { address: '0x0000000000000000000000000000000000000001', chainId: 1 },
    })
    actor.start()
    await new Promise((resolve) => setTimeout(resolve, 0))
    // The options slot failed (not provided): the samples stand in, as for any failure.
    expect(actor.getSnapshot().context.estimates).toBe(true)
    actor.stop()
  })

  it('selects the purchase asset and the status for the views', async () => {
    const machine = onrampMachine.provide({
      actors: {
        fetchOptions: fromPromise(async () => sampleOnrampOptions(10)),
        fetchQuote: fromPromise(() => new Promise<OnrampQuote>(() => {})),
        generateUrl: fromPromise(() => new Promise<string>(() => {})),
        fetchPurchases: fromPromise(() => new Promise<OnrampOrder[]>(() => {})),
        openPartner: fromCallback(() => {}),
      },
    })
    const actor = createActor(machine, {
      input: { address: '0x0000000000000000000000000000000000000001', chainId: 10 },
    })
    actor.start()
    expect(selectOnrampStatus(actor.getSnapshot())).toBe('loading')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(selectOnrampStatus(actor.getSnapshot())).toBe('editing')
    const { currency, network } = selectOnrampAsset(actor.getSnapshot())
    expect([currency?.id, network?.name]).toEqual(['USDC', 'optimism'])
    actor.stop()
  })
})

describe('onramp on Solana', () => {
  const SANDBOX_SOLANA = 'solana:DxPJSVPMqPyW4TvqMa3Eki2nRaRCbwYC' as const
  const solanaNetwork = (contract: string) => ({
    name: 'walletstate-sandbox-solana',
    display_name: 'Walletstate Sandbox Solana',
    chain_id: SANDBOX_SOLANA.slice('solana:'.length),
    contract_address: contract,
  })
  // As the sandbox answers: USDC on the EVM chain and on Solana, ETH on the EVM chain, SOL on Solana.
  const evm = sampleOnrampOptions(31337)
  const options: OnrampOptions = {
    ...evm,
    purchaseCurrencies: [
      {
        ...evm.purchaseCurrencies[0]!,
        networks: [
          ...evm.purchaseCurrencies[0]!.networks,
          solanaNetwork('GZ6N8vXkzuQTZ9YvqPfP3cCKxQ9bqXLKiqRZPcwmQNeg'),
        ],
      },
      evm.purchaseCurrencies[1]!,
      {
        id: 'SOL',
        name: 'Solana',
        symbol: 'SOL',
        networks: [solanaNetwork('So11111111111111111111111111111111111111111')],
      },
    ],
  }

  it('reads a network’s chain: a decimal chain_id is eip155, a base58 reference Solana', () => {
    expect(networkChainId({ chain_id: '31337' })).toBe(31337)
    expect(networkChainId(solanaNetwork(''))).toBe(SANDBOX_SOLANA)
  })

  it('keeps to the account’s namespace: a Solana account buys on Solana only, an EVM one on eip155 only', () => {
    const onSolana = optionsFor(options, SANDBOX_SOLANA)
    expect(onSolana.purchaseCurrencies.map((c) => [c.id, c.networks.map((n) => n.name)])).toEqual([
      ['USDC', ['walletstate-sandbox-solana']],
      ['SOL', ['walletstate-sandbox-solana']],
    ])
    expect(pickPurchase(onSolana, 'USDC', SANDBOX_SOLANA)).toEqual({
      purchaseCurrency: 'USDC',
      chainId: SANDBOX_SOLANA,
    })
    const onEvm = optionsFor(options, 31337)
    expect(onEvm.purchaseCurrencies.map((c) => c.id)).toEqual(['USDC', 'ETH'])
    expect(onEvm.purchaseCurrencies.flatMap((c) => c.networks).every((n) => /^\d+$/.test(n.chain_id))).toBe(
      true,
    )
  })

  it('falls back to Solana samples for a Solana account: USDC and SOL, never an EVM network', () => {
    const samples = optionsFor(sampleOnrampOptions(SANDBOX_SOLANA), SANDBOX_SOLANA)
    expect(samples.purchaseCurrencies.map((c) => [c.id, c.networks[0]?.name])).toEqual([
      ['USDC', 'solana'],
      ['SOL', 'solana'],
    ])
    // 50 USD less 1 % at the sample price of 150 USD: 0.33 SOL.
    const quote = mockQuote(
      {
        purchaseCurrency: 'SOL',
        paymentCurrency: 'USD',
        amount: '50.00',
        network: 'solana',
        provider: 'coinbase',
        paymentMethod: 'card',
      },
      ONRAMP_PROVIDERS[0]!,
    )
    expect(quote?.purchaseAmount).toEqual({ amount: '0.33', currency: 'SOL' })
  })

  it('a Solana account’s flow delivers to its base58 address on the Solana network', async () => {
    const address = '3oGHMXGt3YnzuuEs496heyLgzXBvXKGDEbvLZ1hbALvB'
    const machine = onrampMachine.provide({
      actors: {
        fetchOptions: fromPromise(async () => options),
        fetchQuote: fromPromise(() => new Promise<OnrampQuote>(() => {})),
        generateUrl: fromPromise(() => new Promise<string>(() => {})),
        fetchPurchases: fromPromise(async () => [] as OnrampOrder[]),
        openPartner: fromCallback(() => {}),
      },
    })
    const actor = createActor(machine, { input: { address, chainId: SANDBOX_SOLANA } })
    actor.start()
    await new Promise((resolve) => setTimeout(resolve, 0))
    const { currency, network } = selectOnrampAsset(actor.getSnapshot())
    expect([currency?.id, network?.name]).toEqual(['USDC', 'walletstate-sandbox-solana'])
    actor.send({ type: 'onramp.setPurchaseCurrency', id: 'ETH' })
    // ETH is not delivered on Solana: the form keeps USDC.
    expect(actor.getSnapshot().context.purchaseCurrency).toBe('USDC')
    actor.send({ type: 'onramp.setPurchaseCurrency', id: 'SOL' })
    const { context } = actor.getSnapshot()
    expect(context).toMatchObject({ purchaseCurrency: 'SOL', chainId: SANDBOX_SOLANA })
    expect(urlRequestOf({ ...context, provider: 'coinbase' })).toMatchObject({
      address,
      network: 'walletstate-sandbox-solana',
      purchaseCurrency: 'SOL',
    })
    expect(purchasesRequestOf({ ...context, provider: 'coinbase' })).toEqual({
      address,
      chainId: SANDBOX_SOLANA,
      provider: 'coinbase',
    })
    actor.stop()
  })
})
