import { lazy, StrictMode, Suspense, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { encodeFunctionData, erc20Abi, formatUnits, parseEther, parseUnits } from 'viem'
import { useConfig, useSendTransaction, useSignMessage } from 'wagmi'
import { KIT_LOCALES, type KitLocale } from '../src'
import {
  ConnectButton,
  KitRoot,
  type KitRootProps,
  useKitAccount,
  useKitAssets,
  useKitBitcoin,
  useKitLocale,
  useKitPay,
  useKitSendCalls,
  useKitSession,
  useKitSolana,
  useKitTheme,
} from '../src/react'
import { createDemoKit, payModeOf } from './kit'
import { sandboxConfig } from './sandbox-config'

/*
 * `?smartSessions=1` only: its app signer and bundler client (viem's account abstraction, a private key) are the
 * demo's own weight, not the kit's, so they load with that page and stay out of the demo's first click
 * (`npm run bench:size` measures the demo as a host).
 */
const SmartSessions = lazy(() => import('./smartSessions').then((m) => ({ default: m.SmartSessions })))

/** The demo's kit, from its URL's options and the sandbox's services (`demo/kit.ts`). */
const kit = createDemoKit(sandboxConfig, window.location.search, window.location.origin)
const payMode = payModeOf(window.location.search)

/** A second dev account: the demo's transactions go there. */
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
/** A fixed sandbox key (the ed25519 key of the seed 32 × 0x11): "Send SOL" sends there. */
const SOLANA_RECIPIENT = 'F25s3DdjXdCxYBhh2z8FBusVEMT4b9bGNFVKJi3wFoF4'
/** What the demo's "Pay" button pays (ETH, to RECIPIENT). */
const PAY_AMOUNT = '0.01'
/** 0.01 SOL in lamports. */
const SOL_AMOUNT = 10_000_000n

/**
 * The sandbox's USDC on the chain, as its Data API lists it (a host app knows its tokens; the demo asks the
 * sandbox, whose contract addresses are its own).
 */
async function sandboxUsdc(chainId: number): Promise<`0x${string}`> {
  const api = sandboxConfig.endpoints.api
  if (!api) throw new Error('No sandbox Data API to find USDC on')
  const query = new URLSearchParams({
    projectId: sandboxConfig.projectId,
    st: 'walletstate-demo',
    sv: '0.1.0',
    chainId: `eip155:${chainId}`,
  })
  const response = await fetch(`${api.replace(/\/$/, '')}/v1/convert/tokens?${query}`)
  const { tokens } = (await response.json()) as { tokens: Array<{ symbol: string; address: string }> }
  const usdc = tokens.find((token) => token.symbol === 'USDC')?.address.split(':')[2]
  if (!usdc?.startsWith('0x')) throw new Error('The sandbox lists no USDC')
  return usdc as `0x${string}`
}

/** A receipt of `getCallsStatus` as the demo writes it (`data-receipts`): its transaction, block and logs. */
const receiptRecord = (receipt: {
  transactionHash: string
  blockNumber: bigint
  logs: readonly { address: string; topics: readonly string[]; data: string }[]
}) => ({
  transactionHash: receipt.transactionHash,
  blockNumber: receipt.blockNumber.toString(),
  logs: receipt.logs.map(({ address, topics, data }) => ({ address, topics, data })),
})

/**
 * "Send batch": two transfers in one `wallet_sendCalls` through the kit (0.001 ETH and 1 USDC to the second dev
 * account); the batch's final status, read with wagmi's own `getCallsStatus`, goes to `demo-calls-status` (its
 * receipts, with their logs, as JSON in its `data-receipts`). "Show batch status" asks the kit to show the last
 * batch's status (`wallet_showCallsStatus`: the wallet shows it, or the kit does in words).
 * `?badBatch=1` sends a call whose 'to' is not 0x instead (the kit refuses it before the wallet is asked).
 */
function SendBatch({ show }: { show: (promise: Promise<string>) => void }) {
  const { isConnected, namespace, chainId } = useKitAccount()
  const { sendCalls, showCallsStatus, status } = useKitSendCalls()
  const wagmi = useConfig()
  const [callsStatus, setCallsStatus] = useState('')
  const [receipts, setReceipts] = useState('')
  const [batchId, setBatchId] = useState<string>()
  const bad = new URLSearchParams(window.location.search).get('badBatch') === '1'
  const send = async () => {
    setCallsStatus('')
    setReceipts('')
    const usdc = bad ? RECIPIENT : await sandboxUsdc(chainId as number)
    const transfer = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [RECIPIENT, parseUnits('1', 6)],
    })
    const { id } = await sendCalls([
      { to: (bad ? 'sandbox-recipient' : RECIPIENT) as `0x${string}`, value: parseEther('0.001') },
      { to: usdc, data: transfer },
    ])
    setBatchId(id)
    const { getCallsStatus } = await import('./callsStatus')
    const final = await getCallsStatus(wagmi, { id })
    setReceipts(JSON.stringify((final.receipts ?? []).map(receiptRecord)))
    setCallsStatus(`${final.status} (${final.receipts?.length ?? 0} receipts)`)
    return id
  }
  return (
    <>
      <button
        type="button"
        disabled={!isConnected || namespace === 'solana' || status === 'sending'}
        onClick={() => show(send())}
      >
        Send batch
      </button>
      <button
        type="button"
        disabled={!isConnected || batchId === undefined}
        onClick={() => show(showCallsStatus(batchId!).then(() => 'Batch status shown'))}
      >
        Show batch status
      </button>
      <output data-testid="demo-calls-status" data-receipts={receipts} aria-live="polite">
        {callsStatus}
      </output>
    </>
  )
}

/**
 * "Assets": the connected account's assets per chain (`useKitAssets`, EIP-7811 `wallet_getAssets`), listed in
 * `demo-assets`, each with its exact balance in `data-balance`. The hook's code loads at the first click.
 */
function Assets() {
  const { isConnected, namespace } = useKitAccount()
  const [shown, setShown] = useState(false)
  return (
    <>
      <button type="button" disabled={!isConnected || namespace === 'solana'} onClick={() => setShown(true)}>
        Assets
      </button>
      {shown && isConnected ? <AssetList /> : null}
    </>
  )
}

function AssetList() {
  const { assets, status, error } = useKitAssets()
  return (
    <ul aria-label="Assets" data-testid="demo-assets" data-status={status}>
      {error ? <li>{(error as { shortMessage?: string }).shortMessage ?? error.message}</li> : null}
      {Object.entries(assets ?? {}).flatMap(([chainId, list]) =>
        list.map((asset) => (
          <li
            key={`${chainId}:${asset.address}`}
            data-chain={chainId}
            data-symbol={asset.symbol}
            data-balance={asset.balance.toString()}
          >
            {asset.symbol} {formatUnits(asset.balance, asset.decimals)} (chain {chainId})
          </li>
        )),
      )}
    </ul>
  )
}

/** The kit's language, changed at run time (`useKitLocale`). */
function LocaleSelect() {
  const { locale, setLocale } = useKitLocale()
  return (
    <label>
      Language{' '}
      <select value={locale} onChange={(event) => setLocale(event.target.value as KitLocale)}>
        {KIT_LOCALES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
    </label>
  )
}

function App() {
  const { isConnected, address, namespace } = useKitAccount()
  const solana = useKitSolana()
  const bitcoin = useKitBitcoin()
  const session = useKitSession()
  const theme = useKitTheme()
  const [result, setResult] = useState('')
  const sign = useSignMessage()
  const send = useSendTransaction()
  const payment = useKitPay()
  const show = (promise: Promise<string>) =>
    promise.then(setResult).catch((error: unknown) => {
      const e = error as { shortMessage?: string; message?: string; details?: string }
      const short = e.shortMessage ?? e.message ?? String(error)
      setResult(e.details && e.details !== short ? `${short} (${e.details})` : short)
    })
  return (
    <main>
      <header>
        <h1>Walletstate demo</h1>
        <button
          type="button"
          aria-pressed={theme.themeMode === 'light'}
          onClick={() => theme.setThemeMode(theme.themeMode === 'light' ? 'dark' : 'light')}
        >
          Light theme
        </button>
        <LocaleSelect />
        <ConnectButton />
      </header>
      <div className="actions">
        <button
          type="button"
          disabled={!isConnected || sign.isPending}
          onClick={() => {
            const message = `Hello from the Walletstate demo to ${address}`
            // On Solana the wallet signs through the kit; the signature is base58.
            // On Bitcoin (bip122), the legacy message format: the signature is base64.
            show(
              namespace === 'solana'
                ? solana.signMessage(message)
                : namespace === 'bip122'
                  ? bitcoin.signMessage(message).then(({ signature }) => signature)
                  : sign.mutateAsync({ message }),
            )
          }}
        >
          Sign message
        </button>
        <button
          type="button"
          disabled={!isConnected || send.isPending || namespace !== 'eip155'}
          onClick={() => show(send.mutateAsync({ to: RECIPIENT, value: parseEther('0.01') }))}
        >
          Send transaction
        </button>
        <button
          type="button"
          disabled={!isConnected || namespace !== 'solana'}
          onClick={() => show(solana.sendSol(SOLANA_RECIPIENT, SOL_AMOUNT))}
        >
          Send SOL
        </button>
        <SendBatch show={show} />
        <Assets />
        {new URLSearchParams(window.location.search).get('smartSessions') === '1' ? (
          <Suspense fallback={null}>
            <SmartSessions usdcOf={sandboxUsdc} />
          </Suspense>
        ) : null}
        {payMode === '1' || payMode === 'off' ? (
          <button
            type="button"
            disabled={payment.status === 'paying'}
            onClick={() =>
              show(payment.pay({ recipient: RECIPIENT, amount: PAY_AMOUNT }).then(({ hash }) => hash))
            }
          >
            Pay
          </button>
        ) : null}
      </div>
      <output data-testid="demo-result" aria-live="polite">
        {result}
      </output>
      <p>
        Account: <output data-testid="demo-address">{isConnected ? address : ''}</output>
      </p>
      {session.status === 'disabled' ? null : (
        <p>
          Signed in as: <output data-testid="demo-session">{session.address ?? ''}</output>{' '}
          {session.address ? (
            <button type="button" onClick={session.signOut}>
              Sign out
            </button>
          ) : null}
        </p>
      )}
    </main>
  )
}

/**
 * `?inspect=ws://127.0.0.1:PORT` records every actor, event and snapshot (`createRecorder`) and streams the
 * records to the local inspector server (`npm start` prints the link). The recorder's code loads only then.
 */
async function inspector(): Promise<KitRootProps['inspect']> {
  const url = new URLSearchParams(window.location.search).get('inspect')
  if (!url || !/^wss?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/?$/.test(url)) return undefined
  const { streamToInspector } = await import('./inspect')
  return streamToInspector(url)
}

const root = document.getElementById('root')
if (!root) throw new Error('#root is missing')
void inspector().then((inspect) => {
  createRoot(root).render(
    <StrictMode>
      <KitRoot machine={kit} inspect={inspect}>
        <App />
      </KitRoot>
    </StrictMode>,
  )
})
