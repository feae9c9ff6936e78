import { describe, expect, it } from 'vitest'
import { isSolanaAddress } from '../chains/solana/address'
import { EMAIL_LOGIN_COOLDOWN_MS, FRAME_REQUEST_TIMEOUT_MS } from '../constants'
import { FrameError } from '../errors/frame'
import { FAKE_FRAME_SOLANA_CHAIN_ID, FakeFrame, solanaAddressOf } from '../frame/fakeFrame'
import { frameRpc, selectFrameView } from './frame'
import { ALICE, flush, loginByEmail, ready, start } from './frame/harness'

describe('frameMachine: the connected account', () => {
  it('default: smart account on eip155, EOA on solana', () => {
    expect(start().context().accountType).toBe('smartAccount')
    expect(start({ input: { namespace: 'solana' } }).context().accountType).toBe('eoa')
  })

  it('behavior: switching the account type asks the frame, then takes its user', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const smart = h.context().user!.address
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().accountType).toBe('eoa')
    expect(h.context().user!.address).not.toBe(smart)
    expect(h.context().user!.address).toBe(h.context().user!.accounts.find((a) => a.type === 'eoa')!.address)
    expect(h.emitted.at(-1)).toMatchObject({ type: 'embedded.userUpdated' })
  })

  it("behavior: the frame refusing the smart account reads 'This application might not support Smart Accounts'", async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    await flush()
    await flush()
    expect(h.context().accountType).toBe('eoa')
    // Back to the smart account: the frame refuses it.
    h.frame.silent.add('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'smartAccount' })
    const asked = h.frame.posted.at(-1)!.request
    expect(asked).toMatchObject({ type: 'setPreferredAccount', payload: { type: 'smartAccount' } })
    h.frame.send({
      id: asked.id,
      type: 'frame.reply',
      payload: { ok: false, error: { message: 'Smart accounts are not enabled for this project' } },
    })
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().error).toEqual({
      name: 'SmartAccountUnsupportedError',
      message: 'This application might not support Smart Accounts',
    })
    expect(h.context().accountType).toBe('eoa')
  })

  it('behavior: switching to the smart account that times out, or to the EOA refused, keeps their own texts', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    // From the smart account to the EOA: the frame's own words.
    h.frame.silent.add('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    const asked = h.frame.posted.at(-1)!.request
    h.frame.send({ id: asked.id, type: 'frame.reply', payload: { ok: false, error: { message: 'Busy' } } })
    await flush()
    expect(h.error()).toBe('Busy')
    // An EOA account whose switch to the smart account gets no answer: a timeout, not the SPEC's guess.
    h.frame.silent.delete('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    await flush()
    await flush()
    expect(h.context().accountType).toBe('eoa')
    h.frame.silent.add('setPreferredAccount')
    h.send({ type: 'frame.setAccountType', accountType: 'smartAccount' })
    h.clock.increment(FRAME_REQUEST_TIMEOUT_MS)
    await flush()
    expect(h.error()).toBe('Something went wrong')
  })

  it('behavior: switching network', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.send({ type: 'frame.switchNetwork', chainId: 10 })
    await flush()
    await flush()
    expect(h.context().user!.chainId).toBe(10)
    expect(h.frame.posted.at(-3)!.request).toMatchObject({ type: 'switchNetwork', payload: { chainId: 10 } })
    // On the smart account, the frame sets it up on the new network (SPEC §4 smart-account setup).
    expect(h.frame.posted.at(-1)!.request).toMatchObject({ type: 'initSmartAccount' })
  })

  it('behavior: switching to Solana reads the base58 user; back on eip155 the EVM one (issue 17)', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const evm = h.context().user!
    h.send({ type: 'frame.switchNetwork', chainId: FAKE_FRAME_SOLANA_CHAIN_ID })
    expect(h.snapshot().hasTag('busy')).toBe(true)
    await flush()
    await flush()
    const user = h.context().user!
    expect(user).toEqual({
      email: ALICE,
      address: solanaAddressOf(ALICE),
      chainId: FAKE_FRAME_SOLANA_CHAIN_ID,
      accounts: [{ address: solanaAddressOf(ALICE), type: 'eoa' }],
      preferredAccountType: 'eoa',
    })
    expect(isSolanaAddress(user.address)).toBe(true)
    expect(h.context().accountType).toBe('eoa')
    expect(h.emitted.at(-1)).toEqual({ type: 'embedded.userUpdated', user })
    expect(h.snapshot().hasTag('busy')).toBe(false)
    expect(h.error()).toBeUndefined()

    h.send({ type: 'frame.switchNetwork', chainId: 1 })
    await flush()
    await flush()
    expect(h.context().user).toMatchObject({ address: evm.address, chainId: 1 })
  })

  it('behavior: a switchNetwork answer with an address of the wrong kind is refused; the user stays', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const before = h.context().user
    h.frame.silent.add('switchNetwork')
    h.send({ type: 'frame.switchNetwork', chainId: FAKE_FRAME_SOLANA_CHAIN_ID })
    const asked = h.frame.posted.at(-1)!.request
    // An EVM address for a Solana chain: not what the protocol allows.
    h.frame.send({
      id: asked.id,
      type: 'frame.reply',
      payload: { ok: true, result: { chainId: FAKE_FRAME_SOLANA_CHAIN_ID, address: before!.address } },
    })
    await flush()
    expect(h.error()).toBe('An error occurred')
    expect(h.context().user).toBe(before)
    expect(h.snapshot().hasTag('busy')).toBe(false)
  })

  it('behavior: updating the e-mail takes the current address code, then the new one', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.clock.increment(EMAIL_LOGIN_COOLDOWN_MS)
    h.send({ type: 'frame.updateEmail', email: 'nope' })
    expect(h.error()).toBe('Invalid email')
    h.send({ type: 'frame.updateEmail', email: 'bob@example.com' })
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailWallet')
    await flush()
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailPrimaryOtp')
    h.send({ type: 'frame.submitOtp', otp: '999999' })
    await flush()
    expect(h.error()).toBe('Invalid one-time code')
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailPrimaryOtp')
    h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor(ALICE)! })
    await flush()
    expect(selectFrameView(h.snapshot())).toBe('UpdateEmailSecondaryOtp')
    h.send({ type: 'frame.submitOtp', otp: h.frame.codeFor('bob@example.com')! })
    await flush()
    await flush()
    expect(h.auth()).toEqual({ connected: 'idle' })
    expect(h.context().user!.email).toBe('bob@example.com')
    expect(h.persisted).toContainEqual({ type: 'persist.email', email: 'bob@example.com' })
  })

  it('behavior: an update within the cooldown is refused', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.send({ type: 'frame.updateEmail', email: 'bob@example.com' })
    expect(h.error()).toMatch(/^Please try again after \d+ seconds$/)
    expect(h.auth()).toEqual({ connected: 'idle' })
  })
})

describe('frameMachine: RPC requests', () => {
  it('behavior: read-only calls are answered; signing shows the frame until the visitor decides', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    await expect(frameRpc(h.actor, { method: 'eth_chainId' })).resolves.toBe('0x1')

    const signature = frameRpc(h.actor, { method: 'personal_sign', params: ['0x68656c6c6f', '0x0'] })
    const id = h.context().rpc[0]!.id
    expect(h.context().rpc).toEqual([
      { id, method: 'personal_sign', ref: expect.any(String), actor: expect.anything(), approved: false },
    ])
    expect(h.requests()).toEqual([{ id, command: 'rpcRequest', owner: 'rpc', timeoutMs: undefined }])
    await flush()
    expect(h.snapshot().hasTag('showFrame')).toBe(true)
    expect(selectFrameView(h.snapshot())).toBe('ApproveTransaction')
    expect(h.context().approval).toEqual({ requestId: id, method: 'personal_sign' })
    const container = { getBoundingClientRect: () => ({}) } as unknown as Element
    h.send({ type: 'frame.showIn', container })
    expect(h.frame.shownIn).toBe(container)

    h.frame.approve(id)
    await expect(signature).resolves.toMatch(/^0x5{130}$/)
    expect(h.snapshot().hasTag('showFrame')).toBe(false)
    expect(h.frame.shownIn).toBeUndefined()
    expect(h.emitted.filter((e) => e.type.startsWith('embedded.approval')).map((e) => e.type)).toEqual([
      'embedded.approvalNeeded',
      'embedded.approvalSettled',
    ])
  })

  it('SPEC §5: a malformed transaction hash or signature from the frame is a clear error, never the answer', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.silent.add('rpcRequest')
    const sending = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const signing = frameRpc(h.actor, { method: 'personal_sign', params: ['0x68656c6c6f', '0x0'] })
    const [tx, sign] = h.frame.posted.filter((p) => p.request.type === 'rpcRequest').slice(-2)
    h.frame.send({ id: tx!.request.id, type: 'frame.reply', payload: { ok: true, result: '0x1234' } })
    h.frame.send({ id: sign!.request.id, type: 'frame.reply', payload: { ok: true, result: '0xdead' } })
    await expect(sending).rejects.toMatchObject({ shortMessage: 'Invalid transaction hash' })
    await expect(signing).rejects.toMatchObject({ shortMessage: 'Invalid signature' })
    expect(h.emitted.some((e) => e.type === 'embedded.rpcResult')).toBe(false)
  })

  it('behavior: a declined signature rejects with "Signature declined" (4001)', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const signature = frameRpc(h.actor, { method: 'eth_signTypedData_v4', params: [] })
    await flush()
    h.frame.decline(h.frame.held[0]!)
    const error = await signature.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FrameError)
    expect(error).toMatchObject({ shortMessage: 'Signature declined', code: 4001 })
  })

  it('behavior: rejecting open requests aborts the signing ones; read-only ones go on', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.silent.add('rpcRequest')
    const signing = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const reading = frameRpc(h.actor, { method: 'eth_getBalance', params: ['0x0', 'latest'] })
    h.send({ type: 'frame.rejectRpcRequests' })
    expect(h.context().rpc.map((r) => r.method)).toEqual(['eth_getBalance'])
    expect(h.requests().map((r) => r.command)).toEqual(['rpcRequest'])
    expect(h.posted().at(-1)).toBe('rejectRpcRequests')
    await expect(signing).rejects.toMatchObject({ shortMessage: 'Request was aborted' })
    const balance = h.frame.posted.find(
      (p) => p.request.type === 'rpcRequest' && JSON.stringify(p.request).includes('eth_getBalance'),
    )!
    h.frame.send({ id: balance.request.id, type: 'frame.reply', payload: { ok: true, result: '0x10' } })
    await expect(reading).resolves.toBe('0x10')
  })

  it("behavior: an approved transaction is not cancelled by rejectRpcRequests; it ends with the frame's answer (issue 13)", async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const sending = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const id = h.context().rpc[0]!.id
    await flush()
    expect(selectFrameView(h.snapshot())).toBe('ApproveTransaction')
    // The visitor approves; the transaction is on its way when the modal is closed (Back, Escape, close).
    h.frame.approve(id, { later: true })
    await flush()
    expect(h.context().rpc).toMatchObject([{ id, approved: true }])
    expect(selectFrameView(h.snapshot())).toBeUndefined()
    h.send({ type: 'frame.rejectRpcRequests' })
    expect(h.context().rpc.map((r) => r.id)).toEqual([id])
    const hash = `0x${'a'.repeat(64)}`
    h.frame.finish(id, hash)
    await expect(sending).resolves.toBe(hash)
    expect(h.context().rpc).toEqual([])
  })

  it("behavior: the request on the approval screen is the frame's to answer on rejectRpcRequests (aborted, or its result when Approve crossed the cancel)", async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    // Closed while shown: the screen closes, and the frame answers 'Request was aborted'.
    const first = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const firstId = h.context().rpc[0]!.id
    await flush()
    expect(h.context().approval?.requestId).toBe(firstId)
    h.send({ type: 'frame.rejectRpcRequests' })
    expect(selectFrameView(h.snapshot())).toBeUndefined()
    await expect(first).rejects.toMatchObject({ shortMessage: 'Request was aborted' })

    // The visitor's Approve crossed the kit's cancel: the frame had already approved, and answers the hash.
    h.frame.silent.add('rejectRpcRequests')
    const second = frameRpc(h.actor, { method: 'eth_sendTransaction', params: [{}] })
    const secondId = h.context().rpc[0]!.id
    await flush()
    expect(h.context().approval?.requestId).toBe(secondId)
    h.send({ type: 'frame.rejectRpcRequests' })
    h.frame.approve(secondId)
    await expect(second).resolves.toMatch(/^0x5+$/)
    expect(h.context().rpc).toEqual([])
  })

  it('behavior: a method the frame refuses (4200) is reported to the kit for the RPC-method-not-allowed alert', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    const refused: string[] = []
    h.actor.on('embedded.rpcNotAllowed', (event) => refused.push(event.method))
    await expect(frameRpc(h.actor, { method: 'eth_sign', params: [] })).rejects.toMatchObject({
      shortMessage: 'Requested RPC call is not allowed',
    })
    await expect(frameRpc(h.actor, { method: 'eth_chainId' })).resolves.toBe('0x1')
    expect(refused).toEqual(['eth_sign'])
  })

  it('behavior: signing out aborts every open request', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.silent.add('rpcRequest')
    const reading = frameRpc(h.actor, { method: 'eth_getBalance', params: [] })
    h.send({ type: 'frame.signOut' })
    await expect(reading).rejects.toMatchObject({ shortMessage: 'Request was aborted' })
  })

  it('behavior: requests while signed out, or of no method, are refused without reaching the frame', async () => {
    const h = start()
    await expect(frameRpc(h.actor, { method: 'eth_accounts' })).rejects.toMatchObject({
      shortMessage: 'Action not allowed',
    })
    await ready(h)
    await expect(frameRpc(h.actor, { method: 'eth_accounts' })).rejects.toMatchObject({
      shortMessage: 'Action not allowed',
    })
    await loginByEmail(h)
    await expect(frameRpc(h.actor, { method: '' })).rejects.toMatchObject({
      shortMessage: 'Requested RPC call is not allowed',
    })
    expect(h.posted()).not.toContain('rpcRequest')
  })

  it('behavior: the frame cannot show itself for a request the kit did not send', async () => {
    const h = start()
    await ready(h)
    await loginByEmail(h)
    h.frame.send({ type: 'frame.approvalNeeded', payload: { requestId: 'r99', method: 'personal_sign' } })
    await flush()
    expect(h.snapshot().hasTag('showFrame')).toBe(false)
  })
})

describe('frameMachine: account types and smart-account networks (SPEC §3, §4, §8)', () => {
  it("parameters: the config's preferred type is the default; Solana's is always the EOA", () => {
    expect(start({ input: { preferredAccountType: 'eoa' } }).context().accountType).toBe('eoa')
    const solana = start({ input: { namespace: 'solana', preferredAccountType: 'smartAccount' } })
    expect(solana.context().accountType).toBe('eoa')
  })

  it('behavior: on the smart account the frame sets it up, and says whether it is deployed', async () => {
    const h = start({ input: { smartAccountNetworks: ['eip155:1', 'eip155:10'] } })
    await ready(h)
    await loginByEmail(h)
    expect(h.posted().slice(-2)).toEqual(['getUser', 'initSmartAccount'])
    expect(h.context().user).toMatchObject({
      preferredAccountType: 'smartAccount',
      smartAccountDeployed: false,
    })
    expect(h.context().smartAccountNetworks).toEqual(['eip155:1', 'eip155:10'])
    expect(h.persisted.some((p) => p.type === 'persist.smartAccountNetworks')).toBe(false)
  })

  it("behavior: a fresh login gets the config's EOA: the frame is asked once, then the user read again", async () => {
    const h = start({ input: { preferredAccountType: 'eoa' } })
    await ready(h)
    await loginByEmail(h)
    expect(h.posted()).toEqual(['connectEmail', 'connectOtp', 'getUser', 'setPreferredAccount', 'getUser'])
    expect(h.frame.posted[3]!.request.payload).toEqual({ type: 'eoa' })
    expect(h.context().accountType).toBe('eoa')
    const user = h.context().user!
    expect(user.address).toBe(user.accounts.find((a) => a.type === 'eoa')!.address)
    // The connector learns the EOA's address at connect, not the smart account's first.
    expect(h.emitted.find((e) => e.type === 'embedded.connected')).toMatchObject({
      user: { address: user.address },
    })
  })

  it("behavior: a restored login keeps the frame's type (the visitor's last choice)", async () => {
    const h = start({
      input: { preferredAccountType: 'smartAccount', restored: { loggedIn: true, email: ALICE } },
    })
    h.frame.signIn(ALICE)
    await ready(h)
    await flush()
    h.send({ type: 'frame.setAccountType', accountType: 'eoa' })
    await flush()
    await flush()
    expect(h.context().accountType).toBe('eoa')
    const again = start({
      frame: h.frame,
      input: { preferredAccountType: 'smartAccount', restored: { loggedIn: true, email: ALICE } },
    })
    const before = h.frame.posted.length
    await ready(again)
    await flush()
    expect(again.auth()).toEqual({ connected: 'idle' })
    expect(h.frame.posted.slice(before).map((p) => p.request.type)).toEqual(['isConnected', 'getUser'])
    expect(again.context().accountType).toBe('eoa')
  })

  it("behavior: the frame refusing the smart-account setup is §8's text, and the network leaves the list (stored)", async () => {
    const frame = new FakeFrame([{ email: ALICE, trustedDevice: true }])
    frame.noSmartAccount.add(1)
    const h = start({ frame, input: { smartAccountNetworks: ['eip155:1', 'eip155:10'] } })
    await ready(h)
    await loginByEmail(h)
    expect(h.error()).toBe('This application might not support Smart Accounts')
    expect(h.context().smartAccountNetworks).toEqual(['eip155:10'])
    expect(h.persisted.at(-1)).toEqual({ type: 'persist.smartAccountNetworks', networks: ['eip155:10'] })
  })

  it('guards: the smart account on a network without one is refused before the frame is asked', async () => {
    const h = start({ input: { preferredAccountType: 'eoa', smartAccountNetworks: ['eip155:10'] } })
    await ready(h)
    await loginByEmail(h)
    expect(h.context().accountType).toBe('eoa')
    const asked = h.frame.posted.length
    h.send({ type: 'frame.setAccountType', accountType: 'smartAccount' })
    await flush()
    expect(h.frame.posted.length).toBe(asked)
    expect(h.error()).toBe('This application might not support Smart Accounts')
    expect(h.context().accountType).toBe('eoa')
    // On a network with one, the switch goes to the frame, and the smart account is set up there.
    h.send({ type: 'frame.switchNetwork', chainId: 10 })
    await flush()
    await flush()
    h.send({ type: 'frame.setAccountType', accountType: 'smartAccount' })
    await flush()
    await flush()
    expect(h.context().accountType).toBe('smartAccount')
    expect(h.posted().slice(-3)).toEqual(['setPreferredAccount', 'getUser', 'initSmartAccount'])
  })

  it('parameters: a stored list wins over the given one, within the networks the kit still has', () => {
    const h = start({
      input: {
        smartAccountNetworks: ['eip155:1', 'eip155:10'],
        restored: { loggedIn: false, smartAccountNetworks: ['eip155:10', 'eip155:137'] },
      },
    })
    expect(h.context().smartAccountNetworks).toEqual(['eip155:10'])
  })
})
