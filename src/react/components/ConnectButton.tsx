import { useId } from 'react'
import { selectIsOpen } from '../../machines/modal'
import { truncateAddress } from '../../utils/format'
import { useSelector } from '../actor'
import { useKitActor } from '../context'
import { useKitAccount, useModalActor } from '../hooks'
import LABELS_JSON from '../locales/connectButton.json?raw'

/**
 * The button's label in each locale, read from the file's text at run time. The file writes its non-ASCII
 * labels as `\u` escapes, and its text stays so in the host's bundle; imported as JSON (or written here) they
 * would be printed as the characters themselves, and Chromium keeps a script holding one non-ASCII character
 * as UTF-16, twice its size in memory. This button is on the host's first-click path (the consumer test checks
 * those scripts stay ASCII).
 */
let labels: Record<string, string> | undefined
// Parsed at the first render, not at import: a call at the top of the module would stay in every host's
// bundle, whether it shows this button or not.
function labelFor(locale: string): string | undefined {
  labels ??= JSON.parse(LABELS_JSON) as Record<string, string>
  return labels[locale]
}

export interface ConnectButtonProps {
  /**
   * Text while disconnected; "Connect Wallet" in the kit's language when unset (its own small catalog,
   * locales/connectButton.json: the host page shows it before the kit's catalogs load with the modal).
   */
  label?: string
  className?: string
}

/**
 * The host page's button: "Connect Wallet" while disconnected, the truncated address once connected (its
 * accessible name also says the account's name, once it has one: "0xf3...b92266 (alice.reown.id)"); opens the
 * modal on Connect or on Account.
 *
 * @example
 * ```tsx
 * import { ConnectButton } from 'walletstate/react'
 *
 * // Inside KitRoot: the button's own text, or a label of yours while disconnected.
 * export const Header = () => (
 *   <header>
 *     <ConnectButton label="Sign in with a wallet" />
 *   </header>
 * )
 * ```
 */
export function ConnectButton({ label, className }: ConnectButtonProps) {
  const locale = useSelector(useKitActor(), (s) => s.context.locale)
  const kit = useKitActor()
  const isOpen = useSelector(useModalActor(), selectIsOpen)
  const { status, address } = useKitAccount()
  const id = useId()
  const connected = status === 'connected' && address
  const text = connected ? truncateAddress(address) : (label ?? labelFor(locale))
  return (
    <button
      type="button"
      className={className}
      id={id}
      // Its own text, then the account's name (issue 20): the modal holds that element while a visitor is
      // connected and the account has a name (components/AccountNameLabel.tsx, the same id there).
      aria-labelledby={connected ? `${id} ws-account-name` : undefined}
      aria-haspopup="dialog"
      aria-expanded={isOpen}
      aria-busy={status === 'connecting' || status === 'reconnecting'}
      data-status={status}
      onClick={() => kit.send({ type: 'modal.open' })}
    >
      {text}
    </button>
  )
}
