/**
 * The SPEC's numbers, in one place. Each carries the SPEC section it comes from; values the SPEC leaves open
 * are marked "ours" with the reason.
 */

// §2 Animations
/** Header text cross-fade. §2 */
export const HEADER_TEXT_MS = 120
/** Modal height change. §2 */
export const MODAL_HEIGHT_MS = 150
/** View transition (both directions). §2 */
export const VIEW_TRANSITION_MS = 150
/** Modal shake (e.g. after a rejected request). §2 */
export const MODAL_SHAKE_MS = 500
/** A new toast waits this long after the open one closes. §2, §9 */
export const TOAST_RESHOW_MS = 150
/** How long a success or error toast stays. Ours: the SPEC names none; long enough to read two lines. */
export const TOAST_DURATION_MS = 2_200

// §9 Caches and cooldowns
export const EMAIL_LOGIN_COOLDOWN_MS = 30_000
export const BALANCE_CACHE_MS = 30_000
export const NAME_CACHE_MS = 5 * 60_000
export const TOKEN_BALANCE_RETRY_BLOCK_MS = 30_000

// §9 Timeouts
export const FRAME_LOAD_TIMEOUT_MS = 20_000
export const FRAME_REQUEST_TIMEOUT_MS = 30_000
export const FRAME_SIGN_OUT_TIMEOUT_MS = 3_000
export const FRAME_READY_DELAY_MS = 500
export const TX_RECEIPT_TIMEOUT_MS = 25_000
export const PENDING_TX_POLLING_MS = 30_000
/** How often a pending transaction's receipt is asked for while polling. Ours: §9 names only the 30 s. §4 */
export const PENDING_TX_POLL_INTERVAL_MS = 2_000
export const IMAGE_PRELOAD_RACE_MS = 2_000
/** The frame waits this long before reloading for Farcaster. §9 */
export const FARCASTER_RELOAD_DELAY_MS = 100

// §9 Limits
export const RECENT_WALLETS_MAX = 2
export const PENDING_TRANSACTIONS_MAX = 99
export const WALLETS_RECOMMENDED_COUNT = 4
export const WALLETS_PAGE_SIZE = 40
export const WALLETS_SEARCH_SIZE = 100
export const DEFAULT_SLIPPAGE = 1
export const TELEMETRY_ERRORS_PER_WINDOW = 5
export const TELEMETRY_WINDOW_MS = 60_000
export const DEDUPE_CACHE_ENTRIES = 8_192

// §9 Display
export const TRANSFER_DECIMALS = 3
export const ADDRESS_TRUNCATE_START = 4
export const ADDRESS_TRUNCATE_END = 6

// §7 RPC retries
export const RPC_RETRY_COUNT = 3
export const RPC_RETRY_BASE_MS = 150

// §9 Remote sessions
export const RELAY_PROTOCOL = 'irn'
export const PING_RESPONSE_DELAY_MS = 500
/** Recently deleted topics and ids kept; trimmed by half when full. §9 (value ours: the reference client's). */
export const RECENTLY_DELETED_LIMIT = 200
/** A request's expiry, in seconds, must lie within these bounds. §5, §9 (values: the reference client's). */
export const REQUEST_EXPIRY_MIN_S = 5 * 60
export const REQUEST_EXPIRY_MAX_S = 7 * 24 * 60 * 60
/** Library-defined lifetimes, used when a record carries none. §9 (values: the reference client's). */
export const PROPOSAL_TTL_MS = 5 * 60_000
export const REQUEST_TTL_MS = 15 * 60_000
export const SESSION_TTL_MS = 7 * 24 * 60 * 60_000
/** Settled proposals, sessions and requests a session client keeps for the inspector and callers. Ours. §4 */
export const SESSION_OUTCOMES_KEPT = 50
/**
 * The kit extends a session it holds (SPEC §4: extending resets its expiry) once less than this remains; a session
 * given less than twice this by its wallet is extended halfway through what remained. Ours: the SPEC names none.
 */
export const SESSION_EXTEND_MARGIN_MS = 24 * 60 * 60_000
/** The kit pings a session's wallet after this long without word from it (SPEC §7 wc_sessionPing). Ours. */
export const SESSION_PING_INTERVAL_MS = 5 * 60_000
/**
 * How long the wallet may take to answer a ping or acknowledge an extension before the kit says it is not
 * answering (the library itself waits 5 min). Ours: a round trip through the relay takes well under a second.
 */
export const SESSION_PEER_ANSWER_TIMEOUT_MS = 15_000

// §7, §9 The SDK identity sent to the provider's APIs as `st` and `sv`.
export const SDK_TYPE = 'walletstate'
export const SDK_VERSION = '0.1.0'

// §7, §9 Data API and chain RPC clients
/** How long one Data API request may take. Ours: the SPEC names none. */
export const DATA_API_TIMEOUT_MS = 15_000
/** How long the supported-networks list is trusted before it is asked for again. Ours: §5 says only "checked". */
export const SUPPORTED_CHAINS_CACHE_MS = 10 * 60_000
/** History and NFTs are kept as fresh as balances. Ours: §9 names caches for balances and names only. */
export const ACTIVITY_CACHE_MS = 30_000
/** How long one chain RPC attempt may take before it counts as failed. Ours (viem's http default). */
export const RPC_TIMEOUT_MS = 10_000
/** A Retry-After longer than this is not waited for: the call fails at once instead. Ours. §7 */
export const RPC_RETRY_AFTER_MAX_MS = 30_000

// Alerts (issue 13 item 11)
/** The RPC-method-not-allowed alert is shown this long after the frame refuses a method (SPEC §8: "after 300 ms"). */
export const RPC_METHOD_NOT_ALLOWED_ALERT_DELAY_MS = 300
/**
 * How long the code of a capability loaded on demand (frame, remote sessions, account, send) may take to load
 * before the load counts as failed (retryable). Ours: a lazy chunk on a slow connection; §9 gives the frame 20 s.
 */
export const ON_DEMAND_LOAD_TIMEOUT_MS = 20_000

/** The longest delay a timer holds (setTimeout's 32-bit limit, ~24.8 days); longer ones fire at once. §9 */
export const TIMER_DELAY_MAX_MS = 2 ** 31 - 1

// Timeouts: no flow hangs (issue 13 item 2, the connection and send machines)
/**
 * How long a wallet may take to answer a connect request before the attempt fails. Ours: the SPEC names no
 * limit; §9 gives the frame's sign-in 30 s, and a wallet extension may first ask to be unlocked, so more.
 */
export const CONNECT_TIMEOUT_MS = 120_000
/**
 * How long the reconnect at start may take before the kit shows disconnected. Ours: above the reconnect slot's own
 * waits (1 s for the wallet to announce itself, 10 s for wagmi's reconnect to settle); no prompt is involved. §4
 */
export const RECONNECT_TIMEOUT_MS = 15_000
/**
 * How long the kit, back on the page after opening a wallet by its mobile link (the page reloaded or restored),
 * waits for the pending pairing to complete before it shows disconnected. Ours: the visitor has usually approved
 * by then, and the relay holds the approval; a visitor who has not can pick the wallet again. Issue 18 item 5.
 */
export const RESUME_LINKING_TIMEOUT_MS = 60_000
/** How long a connector's disconnect may take; then the kit is disconnected anyway. Ours: §9 sign-out is 3 s. §4, §8 */
export const DISCONNECT_TIMEOUT_MS = 5_000
/** How long a wallet may take to answer a network switch. Ours: as a connect request (the visitor approves). §8 */
export const SWITCH_CHAIN_TIMEOUT_MS = 120_000
/** How long making another of the wallet's shared accounts the one shown may take (the kit's own step). Ours. §3 */
export const SELECT_ACCOUNT_TIMEOUT_MS = 5_000
/** How long a wallet may take to answer a transaction request (the visitor reviews and approves). Ours. §4, §8 */
export const SEND_REQUEST_TIMEOUT_MS = 120_000

// ---------------------------------------------------------------------------------------------------------
// Data API, RPC transport, telemetry, deep links, recent wallets (issue 13, items 3-5, 7, 9, 10)
/** The code of an RPC error whose answer carries no usable JSON-RPC code, or has no result. §8 (-32603 internal error) */
export const RPC_INTERNAL_ERROR_CODE = -32603
/** How long the analytics config (`GET /getAnalyticsConfig`) may take; then analytics is off. Ours: §7 says only "on failure analytics is off". */
export const ANALYTICS_CONFIG_TIMEOUT_MS = 5_000
/** Longest recent-wallet icon stored (a data:image URI or URL); a longer one is left out, the wallet kept. Ours: §9 caps the list (2), not its icons; EIP-6963 SVG icons fit. */
export const RECENT_WALLET_ICON_MAX_LENGTH = 8_192
/** Longest list a Data API answer may carry (balances, a page, names, prices, networks); longer is malformed. Ours: issue 13 (bounded input). */
export const DATA_API_MAX_ITEMS = 1_000
/** Transfers kept per history item; the rest are not read. Ours: a transaction moves a handful of tokens. */
export const DATA_API_MAX_TRANSFERS = 50
/** Addresses kept per name record (one per SLIP-44 coin type). Ours. */
export const DATA_API_MAX_NAME_ADDRESSES = 64
/** Attribute entries read per name record. Ours. */
export const DATA_API_MAX_NAME_ATTRIBUTES = 32

// Listing and HTTP client: bounded input (issue 13 item 3)
/** The most bytes of one HTTP answer the kit reads. Ours: the SPEC names none; the largest answer the kit
 * expects (a history or listing page) is a few tens of KiB, so 1 MiB leaves room and still bounds memory. */
export const HTTP_BODY_MAX_BYTES = 1024 * 1024
/** The most bytes of an error answer read for its message. Ours: a message is a sentence. */
export const HTTP_ERROR_BODY_MAX_BYTES = 16 * 1024
/** The most wallets one listing page keeps, whatever `entries` asked. Ours: SPEC §9's largest page is the search's 100. */
export const WALLETS_ENTRIES_MAX = 100
/** Chains kept per listing entry. Ours: more than any wallet supports; bounds a hostile entry. */
export const WALLET_CHAINS_MAX = 256
/** Injected identifiers kept per listing entry. Ours: a wallet announces one or two per namespace. */
export const WALLET_INJECTED_MAX = 16
/** A listing answer is parsed in pieces of this size, so parsing stops soon after the page is full. Ours. */
export const WALLETS_PARSE_PIECE_BYTES = 16 * 1024
/** The most wallets the browse list holds, however many pages a listing serves. Ours: several times the largest
 * real listing; bounds memory when a listing never ends. */
export const WALLETS_LIST_MAX = 5000
/** From this many wallets All Wallets renders only the rows in view. Ours: below it every wallet stays in the DOM
 * (find in page, screen readers' own list navigation); above it rendering grows with the view, not the list. */
export const WALLETS_VIRTUAL_FROM = 200

// Domain verification (issue 13 item 11: SPEC §3 Verify context, §8 alert "unverified domain")
/** How long the Verify service may take to register the page's attestation; then the domain stays UNKNOWN.
 * Ours, as WalletConnect's own client: it aborts its attestation after 5 s. */
export const VERIFY_TIMEOUT_MS = 5_000

// Remote sessions: no step waits on the relay forever (issue 13, the "no dead end" check)
/**
 * The sign client's own limit on one relay round, a publish or a subscribe (WalletConnect core's publishTimeout
 * and subscribeTimeout, one minute): after it the library fails the call itself. Not a limit of ours; the
 * session limits below are built on it, so the library's own error normally arrives first and ours only ends a
 * call that hangs (a relay socket that never answers, a library that never settles).
 */
export const RELAY_ROUND_MS = 60_000
/** What each session limit leaves beyond the library's own rounds, for its error to arrive first. Ours. */
export const RELAY_MARGIN_MS = 30_000
/** App: connect() creates a pairing (a subscribe), then publishes the proposal: two relay rounds. Ours. §4 */
export const SESSION_CONNECT_TIMEOUT_MS = 2 * RELAY_ROUND_MS + RELAY_MARGIN_MS
/** Wallet: pair() subscribes to the pairing topic of the URI: one relay round. Ours. §4 */
export const SESSION_PAIR_TIMEOUT_MS = RELAY_ROUND_MS + RELAY_MARGIN_MS
/**
 * Wallet: an answer published to the peer, one relay round: rejecting a one-click auth request, and refusing an
 * invalid proposal, request or signature (SPEC §8). Ours: a refusal is a courtesy the peer does not depend on
 * (its own record expires), so it is not waited for longer than the library waits for the publish.
 */
export const SESSION_ANSWER_TIMEOUT_MS = RELAY_ROUND_MS + RELAY_MARGIN_MS
/** Wallet: approving a one-click auth request subscribes to the new session's topic, then publishes: two rounds. Ours. §4 */
export const AUTH_APPROVE_TIMEOUT_MS = 2 * RELAY_ROUND_MS + RELAY_MARGIN_MS
/**
 * Wallet: the signature checks of a one-click auth request before it is approved. Ours: they are local today
 * (EIP-191 recovery); an ERC-1271 check would ask a chain, RPC_TIMEOUT_MS per attempt with RPC_RETRY_COUNT
 * retries, which this leaves room for. A check that does not finish fails closed: the request is refused. §4
 */
export const AUTH_VERIFY_TIMEOUT_MS = 45_000

// The open path (issue 14)
/** On a device without hover (where the login frame loads when the modal opens, not on intent), how long after
 * the open it starts loading: past the first frame, so the iframe's own set-up (~20 ms of main thread) never
 * delays the dialog's first paint. Ours: the frame needs its own 500 ms ready wait (SPEC §4) anyway, so 50 ms
 * more is not felt. */
export const EMBEDDED_LOAD_AFTER_OPEN_MS = 50
/** Ours: what the open dialog does not wait for (the wallet listing's code, the analytics config) starts this long
 * after the open, past its first paint, so nothing is fetched between the press and Connect on screen (issue 34). */
export const AFTER_OPEN_PAINT_MS = 50

// Sign-in with the wallet (issue 15)
/** A sign-in request to the sessions API (create, read, revoke). §9: sign-in requests 30 s. */
export const SIGN_IN_REQUEST_TIMEOUT_MS = 30_000
/** How long a session of the SIWE preset lasts (EIP-4361 `expirationTime`). Ours: the SPEC names none. */
export const SIWE_SESSION_TTL_MS = 24 * 60 * 60 * 1000
/** How long the wallet may take to sign the sign-in message (the visitor reads it first). Ours, as a connect. */
export const SIGN_IN_SIGNATURE_TIMEOUT_MS = 120_000

// Swaps (issue 16)
/** How long the amount and the pair must stay unchanged before a quote is asked for (typing coalesces). Ours. §7 */
export const SWAP_QUOTE_DEBOUNCE_MS = 500
/** How often the quote is asked for again while the preview is open. Ours: the SPEC names none; prices move. §7 */
export const SWAP_QUOTE_REFRESH_MS = 15_000
/** The largest slippage tolerance (in percent) the form accepts. Ours: §9 names only the default (1). */
export const SWAP_SLIPPAGE_MAX = 50

// Buy / onramp (issue 19)
/**
 * The amounts a payment method accepts, per payment currency, as decimal strings in that currency. §9 (the
 * fallback limits: card 10.00 to 7500.00, bank account (ACH) 10.00 to 25000.00, USD and EUR); the Data API's
 * options carry their own, which come first.
 */
export const ONRAMP_LIMITS = {
  USD: {
    card: { min: '10.00', max: '7500.00' },
    ach_bank_account: { min: '10.00', max: '25000.00' },
  },
  EUR: {
    card: { min: '10.00', max: '7500.00' },
    ach_bank_account: { min: '10.00', max: '25000.00' },
  },
} as const
/** How long the amount and the choices must stay unchanged before quotes are asked for (typing coalesces). Ours. */
export const ONRAMP_QUOTE_DEBOUNCE_MS = 500
/** How often the provider's orders are read while the partner page is open. Ours: §9 names none. */
export const ONRAMP_POLL_INTERVAL_MS = 3_000
/** How long the kit waits for a purchase to complete before it gives up (retryable). Ours: §9 names none. */
export const ONRAMP_PURCHASE_TIMEOUT_MS = 15 * 60 * 1000
/**
 * How long the kit keeps reading a purchase's order after the partner window closed while the order was still
 * pending (the partner settles it later); then it says the purchase may still complete and where to look. Ours.
 */
export const ONRAMP_PROCESSING_TIMEOUT_MS = 10 * 60 * 1000
/**
 * The origins each provider's partner page may be on: a partner URL elsewhere is refused, and no window goes
 * there. A host adds or replaces a provider's list with the config's `onrampPartnerOrigins`.
 */
export const ONRAMP_PARTNER_ORIGINS: Readonly<Record<string, readonly string[]>> = {
  coinbase: ['https://pay.coinbase.com'],
  meld: ['https://meldcrypto.com'],
}
/** §9 "Restricted timezones list (China region)": where Buy is hidden. */
export const ONRAMP_RESTRICTED_TIMEZONES = [
  'Asia/Shanghai',
  'Asia/Urumqi',
  'Asia/Chongqing',
  'Asia/Harbin',
  'Asia/Kashgar',
  'Asia/Macau',
  'Asia/Macao',
  'Asia/Hong_Kong',
] as const

/** The address the Data API's balances and convert endpoints use for a chain's native currency. */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

// §5 Solana
/** The commitment a Solana send is preflighted with and waited for. §5 (one of its values) */
export const SOLANA_SEND_COMMITMENT = 'confirmed'
/** What a Solana transaction pays per signature, in lamports (the network's base fee). Ours: §9 names none. */
export const SOLANA_LAMPORTS_PER_SIGNATURE = 5_000
/** The size of an SPL token account, whose rent a send pays when it creates the recipient's. Ours. */
export const SPL_TOKEN_ACCOUNT_SIZE = 165
/** The preflight commitment levels a Solana send may name. §5 */
export const SOLANA_PREFLIGHT_COMMITMENTS = [
  'processed',
  'confirmed',
  'finalized',
  'recent',
  'single',
  'singleGossip',
  'root',
  'max',
] as const

// §5 Account names (issue 20)
/** The fewest characters a name's label may have. §5 */
export const NAME_MIN_LENGTH = 4
/** The suffix of a name registered through the kit. §5 */
export const NAME_SUFFIX = '.reown.id'
/** The most characters a name's label may have (a DNS label's limit; the Data API looks up no longer one). Ours. */
export const NAME_MAX_LENGTH = 63
/** The legacy suffix: resolved, never registered. §5 */
export const NAME_LEGACY_SUFFIX = '.wcn.id'
/** How long a typed name must stay unchanged before its availability is asked for (typing coalesces). Ours. */
export const NAME_CHECK_DEBOUNCE_MS = 300
/** The zone name suggestions are asked in (`?zone=`). §9: fixed, host-specific, not shown. */
export const NAME_ZONE = 'reown.id'
/** How old a registration message may be when the API reads it, in seconds. Ours. */
export const NAME_MESSAGE_MAX_AGE_S = 600

// Checked swap builds
/**
 * The latest deadline a built swap may carry, in seconds from when the kit checks it. Ours: a swap signed now
 * must not stay executable for long (a far deadline lets a held transaction be mined at a worse time); the
 * sandbox builds 20 minutes ahead, common routers 20–30.
 */
export const SWAP_DEADLINE_MAX_S = 30 * 60
/**
 * Added to a held swap's remaining lifetime before a new swap is offered: block times may trail the kit's
 * clock. Ours.
 */
export const SWAP_EXPIRY_MARGIN_MS = 60_000

// See before you sign
/**
 * How long the preview waits for the simulation of the transaction(s) it built. Ours: past it, the preview is
 * shown without the balance-change line (as on a node that cannot simulate), never with a guessed one.
 */
export const SIMULATION_TIMEOUT_MS = 10_000

/**
 * Longest wallet name shown, from any source (the listing, EIP-6963 announcements, injected and Wallet Standard
 * wallets, stored recent wallets); longer names are cut with an ellipsis. Ours: a name is a label.
 */
export const WALLET_NAME_MAX_LENGTH = 64

// ---------------------------------------------------------------------------------------------------------
// One payment, one transaction (the send flow past the wallet's time limit)
/** How many blocks back the send flow looks for the transaction that took a payment's nonce. Ours. */
export const SEND_NONCE_SCAN_BLOCKS = 256

// ---------------------------------------------------------------------------------------------------------
// Batched calls (EIP-5792), ours: a status read's interval; the wallet's time for capabilities, for each prompt
// (one per call when it asks call by call) and for a status read; how long a sent batch is followed.
export const CALLS_STATUS_POLL_MS = 1_000
export const CALLS_CAPABILITIES_TIMEOUT_MS = 10_000
export const CALLS_REQUEST_TIMEOUT_PER_PROMPT_MS = 120_000
export const CALLS_STATUS_READ_TIMEOUT_MS = 10_000
export const CALLS_CONFIRM_TIMEOUT_MS = 10 * 60 * 1000

// Account types (the embedded wallet's smart account)
/** SPEC §4: "default is smart account for eip155 and EOA for solana" (`preferredAccountTypes` overrides eip155's). */
export const DEFAULT_ACCOUNT_TYPES = { eip155: 'smartAccount', solana: 'eoa' } as const
/** How many smart-account-enabled networks are stored at most. Ours: a kit configures far fewer networks. */
export const SMART_ACCOUNT_NETWORKS_MAX = 64

// ERC-7715 permissions (smart sessions), ours: the wallet's time to answer a grant or a revoke (the visitor
// approves it, then its user operation is mined).
export const PERMISSIONS_REQUEST_TIMEOUT_MS = 180_000

/** SPEC §1: "default events are accountsChanged and chainChanged", asked for in every namespace a session proposes. */
export const SESSION_DEFAULT_EVENTS: readonly string[] = ['accountsChanged', 'chainChanged']

// SPEC §7: the eip155 wallet methods the kit uses, asked for in every WalletConnect session (a plain pairing's
// proposal and one-click auth's request): WalletConnect's own defaults, plus EIP-5792's status display, EIP-7811's
// assets and ERC-7715's permissions, which its defaults lack. A wallet approves only the methods a session asked
// for.
export const KIT_EIP155_METHODS: readonly string[] = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_sendRawTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'personal_sign',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getPermissions',
  'wallet_requestPermissions',
  'wallet_registerOnboarding',
  'wallet_watchAsset',
  'wallet_scanQRCode',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
  'wallet_showCallsStatus',
  'wallet_getAssets',
  'wallet_grantPermissions',
  'wallet_revokePermissions',
]

// ERC-7715 permissions, ours: how many granted permissions' public records (no key) the kit keeps in storage, all
// accounts together, so they are listed again after a reload.
export const STORED_PERMISSIONS_MAX = 64

// EIP-5792, ours: how long a wallet's `wallet_getCapabilities` answer serves the same connector, account and chain
// (a permission grant right after a batch check asks the wallet once).
export const WALLET_CAPABILITIES_FRESH_MS = 30_000

/**
 * SPEC §1/§7: the Solana wallet methods a WalletConnect session asks for (WalletConnect's Solana RPC, as the
 * sandbox wallet page and the Solana wallets serve it): Solana's own pairing, and a multichain pairing's solana
 * namespace.
 */
export const KIT_SOLANA_METHODS: readonly string[] = [
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAndSendTransaction',
]

/**
 * SPEC §1/§7: a multichain WalletConnect pairing also proposes bip122 (optional): WalletConnect's Bitcoin RPC
 * methods, on Bitcoin mainnet, testnet and regtest (CAIP-2: the genesis block hash's first 32 hex characters).
 */
export const KIT_BIP122_METHODS: readonly string[] = ['signMessage', 'getAccountAddresses', 'sendTransfer']
export const BIP122_CHAIN_IDS: readonly string[] = [
  'bip122:000000000019d6689c085ae165831e93',
  'bip122:000000000933ea01ad0ee984209779ba',
  'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
]

// §9 Multicall batch size, native balance cache, image preload race, pending transactions
/** The most calldata bytes one multicall of batched chain reads carries (viem's `batch.multicall.batchSize`). §9 */
export const MULTICALL_BATCH_SIZE_BYTES = 1_024
/** How long the native balance Account shows stays fresh: a second opening within it asks the chain nothing. §9 */
export const NATIVE_BALANCE_CACHE_MS = BALANCE_CACHE_MS

/**
 * SPEC §3 Connector `imageId`: the provider's image ids (`GET /public/getAssetImage/{id}`, SPEC §7) of the kit's own
 * connectors, shown when the connector brings no icon of its own.
 */
export const CONNECTOR_IMAGE_IDS = {
  walletConnect: '5fca2d83-f6c9-bb4a-5d36-af55fc278c00',
  auth: '4e6d4e17-83ac-acc4-b890-b8ec50690b00',
  injected: '065e0730-2be8-c000-e845-0fc9c55dea00',
} as const
