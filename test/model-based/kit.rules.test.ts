import { describe, expect, it } from 'vitest'
import { type AnyEventObject, assign, createActor, createMachine, fromCallback, fromPromise } from 'xstate'
import { defineEvmNetwork, defineSolanaNetwork, resolveConfig } from '../../src'
import { type KitEvent, type KitInput, kitMachine, selectCapability } from '../../src/machines/kit'
import { kitTestInput, shown, testAccount } from './kit.fixtures'

/**
 * The kit's cross-machine rules, one by one: every child is a recorder, so each test reads what the kit told
 * which machine (the model-based test in kit.test.ts covers every state and transition; this one checks what
 * the transitions send).
 */
type Log = Array<[string, AnyEventObject]>

function kitWithRecorders(
  overrides: Partial<KitInput> = {},
  /** The listing's loader: its code loads at once unless a test says otherwise. */
  loadWallets: () => Promise<unknown> = async () => createMachine({}),
) {
  const log: Log = []
  const invoked = (name: string) =>
    fromCallback<AnyEventObject>(({ receive }) => receive((event) => log.push([name, event])))
  const spawned = (name: string) =>
    createActor(
      createMachine({ on: { '*': { actions: ({ event }) => void log.push([name, event]) } } }),
    ).start() as never
  const quiet = fromCallback<KitEvent>(() => {})
  const standIn = createMachine({})
  /** The swap flow is spawned by the kit's own action: each one records its input, events and its stop. */
  const swapInputs: unknown[] = []
  const swapLogic = createMachine({
    context: ({ input }) => {
      swapInputs.push(input)
      return {}
    },
    on: { '*': { actions: ({ event }) => void log.push(['swap', event]) } },
  })
  const machine = kitMachine.provide({
    actions: {
      spawnFrame: assign({ frame: () => spawned('frame') }),
      spawnRemoteSessions: assign({ remoteSessions: () => spawned('remoteSessions') }),
      spawnAccount: assign({ account: () => spawned('account') }),
      spawnSend: assign({ sendFlow: () => spawned('send') }),
      spawnWallets: assign({ wallets: () => spawned('wallets') }),
    },
    actors: {
      modal: invoked('modal') as never,
      toast: invoked('toast') as never,
      connection: invoked('connection') as never,
      telemetry: invoked('telemetry') as never,
      embeddedLoader: quiet,
      followModal: quiet,
      followConnectors: quiet,
      followFrame: quiet,
      followRemoteSessions: quiet,
      followAccount: quiet,
      followSend: quiet,
      followSwap: quiet,
      loadSwap: fromPromise(async () => swapLogic) as never,
      loadEmbedded: fromPromise(async () => ({ logic: standIn, restored: undefined })) as never,
      loadRemoteSessions: fromPromise(async () => standIn) as never,
      loadAccount: fromPromise(async () => standIn) as never,
      loadSend: fromPromise(async () => standIn) as never,
      loadWallets: fromPromise(loadWallets) as never,
      // Solana's connection (only with a Solana network): a recorder too.
      followSolana: quiet,
      loadSolana: fromPromise(async () =>
        createMachine({ on: { '*': { actions: ({ event }) => void log.push(['solana', event]) } } }),
      ) as never,
    },
  })
  const input = kitTestInput('kit-rules', overrides)
  const kit = createActor(machine, { input }).start()
  const send = (event: unknown) => kit.send(event as KitEvent)
  /** What `name` was told since the last call. */
  const told = (name: string) => {
    const events = log.filter(([to]) => to === name).map(([, event]) => event)
    log.length = 0
    return events
  }
  return { kit, send, told, log, swapInputs }
}

const account = testAccount
const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const succeeded = (native: boolean) => ({
  type: 'send.succeeded',
  hash: '0x1',
  chainId: 31337,
  native,
  symbol: native ? 'ETH' : 'STK',
  amount: '1',
  to: '0x2',
})

describe('kit rules', () => {
  it('after a send: native goes back from the preview, ERC-20 returns to Account, balances are read fresh', async () => {
    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'WalletSend'))
    await tick()
    send(shown('Account', 'WalletSend', 'WalletSendPreview'))
    log.length = 0
    send(succeeded(true))
    expect(told('modal')).toEqual([{ type: 'router.back' }])
    send(succeeded(false))
    expect(log.filter(([to]) => to === 'modal').map(([, e]) => e)).toEqual([
      { type: 'router.replace', view: 'Account' },
    ])
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e.type)).toContain('account.refreshBalances')
    expect(told('toast')).toEqual([{ type: 'toast.show', variant: 'success', message: 'Sent 1 STK' }])
  })

  it('the send preview opens when the send machine starts previewing on the form, and only there', async () => {
    const { send, told } = kitWithRecorders()
    send(shown('Account', 'WalletSend'))
    await tick()
    told('modal')
    send({ type: 'send.previewing' })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'WalletSendPreview' }])
    send(shown('Account'))
    send({ type: 'send.previewing' })
    expect(told('modal')).toEqual([])
  })

  it('a disconnect closes the modal and resets the account and the send flow', async () => {
    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'WalletSend'))
    await tick()
    log.length = 0
    send({ type: 'account.disconnected' })
    const to = (name: string) => log.filter(([n]) => n === name).map(([, e]) => e)
    expect(to('modal')).toEqual([{ type: 'modal.connected', connected: false }, { type: 'modal.close' }])
    expect(to('account')).toEqual([{ type: 'account.clear' }])
    expect(to('send')).toEqual([{ type: 'send.reset' }])
    told('modal')
  })

  it('swap: Swap loads a flow for the account and chain connected; a new chain, account or none ends it', async () => {
    const { kit, send, told, log, swapInputs } = kitWithRecorders()
    send(shown('Account', 'Swap'))
    await tick()
    // No account, no swap flow.
    expect(selectCapability(kit.getSnapshot(), 'swapFlow')).toBe('idle')
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'Swap'))
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'swapFlow')).toBe('running')
    expect(swapInputs).toEqual([{ chainId: 31337, userAddress: account('injected').address, balances: [] }])
    // The views' events reach it, through the kit.
    send({ type: 'swap.setAmount', amount: '100' })
    expect(told('swap')).toContainEqual({ type: 'swap.setAmount', amount: '100' })
    // Fresh balances reach it too.
    send({
      type: 'account.balancesUpdated',
      owner: { address: '0x0', chainId: 'eip155:31337' },
      balances: [],
    })
    expect(told('swap')).toContainEqual({ type: 'swap.setBalances', balances: [] })
    // Another chain while Swap shows: the old flow stops, a fresh one starts for the new chain.
    const first = kit.getSnapshot().context.swapFlow!
    send({ type: 'account.chainChanged', chainId: 1, supported: true })
    await tick()
    expect(first.getSnapshot().status).toBe('stopped')
    const second = kit.getSnapshot().context.swapFlow!
    expect(second).not.toBe(first)
    expect(swapInputs.at(-1)).toMatchObject({ chainId: 1 })
    expect(selectCapability(kit.getSnapshot(), 'swapFlow')).toBe('running')
    // Disconnected: stopped, and none starts again.
    log.length = 0
    send({ type: 'account.disconnected' })
    await tick()
    expect(second.getSnapshot().status).toBe('stopped')
    expect(kit.getSnapshot().context.swapFlow).toBeUndefined()
    expect(selectCapability(kit.getSnapshot(), 'swapFlow')).toBe('idle')
    expect(swapInputs).toHaveLength(2)
  })

  it('swap: features.swaps off never loads it; a success from the preview toasts, refreshes and returns to Account', async () => {
    const off = kitWithRecorders({
      config: {
        ...kitTestInput('kit-rules').config,
        features: { ...kitTestInput('kit-rules').config.features, swaps: false },
      },
    })
    off.send({
      type: 'account.connected',
      account: account('injected'),
      method: 'browser',
      reconnected: true,
    })
    off.send(shown('Account', 'Swap'))
    await tick()
    expect(selectCapability(off.kit.getSnapshot(), 'swapFlow')).toBe('idle')
    // The host's slippage reaches the flow.
    const tolerant = kitWithRecorders({ config: { ...kitTestInput('kit-rules').config, swapSlippage: 2.5 } })
    tolerant.send({
      type: 'account.connected',
      account: account('injected'),
      method: 'browser',
      reconnected: true,
    })
    tolerant.send(shown('Account', 'Swap'))
    await tick()
    expect(tolerant.swapInputs).toEqual([expect.objectContaining({ slippage: 2.5 })])

    const { send, told, log } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account', 'Swap'))
    await tick()
    send(shown('Account', 'Swap', 'SwapPreview'))
    await tick()
    log.length = 0
    const swapped = {
      type: 'swap.succeeded',
      hash: '0x3',
      chainId: 31337,
      from: 'USDC',
      to: 'ETH',
      fromAmount: '100',
      toAmount: '0.032901234567890123',
    }
    send(swapped)
    expect(log.filter(([to]) => to === 'modal').map(([, e]) => e)).toEqual([
      { type: 'router.reset', view: 'Account' },
    ])
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e.type)).toContain('account.refreshBalances')
    expect(told('toast')).toEqual([
      { type: 'toast.show', variant: 'success', message: 'Swapped 100 USDC for 0.032901 ETH' },
    ])
    // Elsewhere (the visitor left the preview): the toast, no routing.
    send(shown('Account'))
    log.length = 0
    send(swapped)
    expect(told('modal')).toEqual([])
  })

  it('swap: the preview opens when the swap flow starts previewing on the form, and only there', async () => {
    const { send, told } = kitWithRecorders()
    send(shown('Account', 'Swap'))
    await tick()
    told('modal')
    send({ type: 'swap.previewing' })
    expect(told('modal')).toEqual([{ type: 'router.push', view: 'SwapPreview' }])
    send(shown('Account', 'Swap', 'SwapPreview'))
    send({ type: 'swap.previewing' })
    expect(told('modal')).toEqual([])
  })

  it('the load events come from the kit when a view shows: the listing on Connect, balances on Account', async () => {
    const { send, told, log } = kitWithRecorders()
    send(shown('Connect'))
    await tick()
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }])
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    send(shown('Account'))
    await tick()
    // The account machine loaded on demand and was asked for the connected account's balances.
    expect(log.filter(([to]) => to === 'account').map(([, e]) => e)).toContainEqual({
      type: 'account.fetchBalances',
      address: account('injected').address,
      chainId: 'eip155:31337',
    })
  })

  it("the listing's code loads when the modal opens; Connect's load waits for it and then reaches it", async () => {
    let arrive: (logic: unknown) => void = () => {}
    const { kit, send, told } = kitWithRecorders({}, () => new Promise((resolve) => (arrive = resolve)))
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('idle')
    send({ type: 'modal.open' })
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('loading')
    send(shown('Connect'))
    send({ type: 'wallets.search', query: 'me' })
    send({ type: 'wallets.search', query: 'meta' })
    expect(told('wallets')).toEqual([])
    arrive(createMachine({}))
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('running')
    // In the order asked, the latest search only; afterwards each request goes straight through.
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }, { type: 'wallets.search', query: 'meta' }])
    send({ type: 'wallets.loadMore' })
    expect(told('wallets')).toEqual([{ type: 'wallets.loadMore' }])
  })

  it('a request of the listing loads its code by itself (the host, All Wallets opened first)', async () => {
    const { kit, send, told } = kitWithRecorders()
    send({ type: 'wallets.load' })
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('running')
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }])
  })

  it('a listing code that failed to load is loaded again by the next request, which then reaches it', async () => {
    let attempts = 0
    const loader = async () => {
      attempts += 1
      if (attempts === 1) throw new Error('offline')
      return createMachine({})
    }
    const { kit, send, told } = kitWithRecorders({}, loader)
    send({ type: 'modal.open' })
    send(shown('AllWallets'))
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('failed')
    send({ type: 'listing.load' })
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('running')
    expect(told('wallets')).toEqual([{ type: 'wallets.load' }])
  })

  it("parameters: features.allWallets off: the listing's code never loads", async () => {
    const base = kitTestInput('kit-rules')
    const config = { ...base.config, features: { ...base.config.features, allWallets: false } }
    const { kit, send } = kitWithRecorders({ config })
    send({ type: 'modal.open' })
    send(shown('Connect'))
    await tick()
    expect(selectCapability(kit.getSnapshot(), 'wallets')).toBe('idle')
  })

  it('UnsupportedChain opens on an unsupported chain and closes when the wallet comes back', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    told('modal')
    send({ type: 'account.chainChanged', chainId: 1, supported: false })
    expect(told('modal')).toEqual([{ type: 'modal.open', view: 'UnsupportedChain' }])
    send(shown('UnsupportedChain'))
    send({ type: 'account.chainChanged', chainId: 31337, supported: true })
    expect(told('modal')).toEqual([{ type: 'modal.close' }])
    // Back on a supported chain with no UnsupportedChain view open: nothing to close.
    send(shown())
    send({ type: 'account.chainChanged', chainId: 31337, supported: true })
    expect(told('modal')).toEqual([])
  })

  it('an expired proposal renews the QR code only while connecting through WalletConnect', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'remoteSessions.proposalExpired' })
    expect(told('connection')).toEqual([])
    send({ type: 'wallet.select', wallet: { id: 'some-wallet', name: 'Some Wallet' } })
    expect(told('connection')).toEqual([
      {
        type: 'connection.connect',
        connectorId: 'walletConnect',
        wallet: { id: 'some-wallet', name: 'Some Wallet' },
        method: 'qrcode',
      },
    ])
    send({ type: 'remoteSessions.proposalExpired' })
    expect(told('connection')).toEqual([{ type: 'connection.pairingExpired' }])
  })

  it('a signing request in the frame opens the closed modal on ApproveTransaction; a login view waits', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'embedded.view', view: 'EmailVerifyOtp', previous: undefined, connected: false })
    expect(told('modal')).toEqual([])
    send({ type: 'embedded.view', view: 'ApproveTransaction', previous: undefined, connected: true })
    expect(told('modal')).toEqual([{ type: 'modal.open', view: 'ApproveTransaction' }])
  })

  it('a fresh connection closes the modal and is tracked; a silent reconnect is not', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: true })
    expect(told('modal')).toEqual([{ type: 'modal.connected', connected: true }])
    expect(told('telemetry')).toEqual([])
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: false })
    expect(told('modal')).toEqual([{ type: 'modal.connected', connected: true }, { type: 'modal.close' }])
  })

  it('a fresh connection sends CONNECT_SUCCESS with its method', () => {
    const { send, told } = kitWithRecorders()
    send({ type: 'account.connected', account: account('injected'), method: 'browser', reconnected: false })
    expect(told('telemetry')).toEqual([
      {
        type: 'telemetry.send',
        event: {
          type: 'track',
          event: 'CONNECT_SUCCESS',
          properties: { method: 'browser', connector: 'injected' },
        },
      },
    ])
  })

  it('WalletConnect picked while Solana is shown connects through Solana’s WalletConnect connector (issue 17)', async () => {
    const solanaSandbox = defineSolanaNetwork({
      name: 'Solana Sandbox',
      genesisHash: 'Hq4dzz54z5Mz3UNbSXtqh2tF4zCBtKZx',
      rpcUrl: 'http://127.0.0.1:8899',
    })
    const config = resolveConfig({
      projectId: 'kit-rules',
      features: { analytics: false },
      networks: [
        defineEvmNetwork({
          id: 31337,
          name: 'Sandbox',
          nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
        }),
        solanaSandbox,
      ],
    })
    const { send, told } = kitWithRecorders({ config })
    await tick()
    send({
      type: 'kit.solanaConnectors',
      connectors: [
        { id: 'solana:walletconnect', name: 'WalletConnect', type: 'walletconnect', chain: 'solana' },
      ],
    })
    const walletConnect = { id: 'walletConnect', name: 'WalletConnect' }
    // eip155 shown: eip155's WalletConnect, as before.
    send({ type: 'wallet.select', wallet: walletConnect })
    expect(told('connection')).toEqual([
      { type: 'connection.connect', connectorId: 'walletConnect', wallet: walletConnect, method: 'qrcode' },
    ])
    send({ type: 'connection.cancel' })
    send({ type: 'network.select', caipNetworkId: solanaSandbox.caipNetworkId })
    told('solana')
    send({ type: 'wallet.select', wallet: walletConnect })
    expect(told('solana')).toEqual([
      {
        type: 'connection.connect',
        connectorId: 'solana:walletconnect',
        wallet: walletConnect,
        method: 'qrcode',
      },
    ])
    expect(told('connection')).toEqual([])
    // A listing wallet with no local connector goes the same way.
    const listed = { id: 'some-wallet', name: 'Some Wallet' }
    send({ type: 'wallet.select', wallet: listed })
    expect(told('solana')).toEqual([
      { type: 'connection.connect', connectorId: 'solana:walletconnect', wallet: listed, method: 'qrcode' },
    ])
  })
})
