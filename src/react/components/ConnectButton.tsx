import { useSelector } from '@xstate/react'
import { useKitActor } from '../context'
import { useModalActor } from '../hooks'

export interface ConnectButtonProps {
  /** Text while disconnected. */
  label?: string
  className?: string
}

/**
 * The host page's button: opens the modal on Connect (or Account once connected).
 *
 * @example
 * <ConnectButton />
 */
export function ConnectButton({ label = 'Connect Wallet', className }: ConnectButtonProps) {
  const kit = useKitActor()
  const isOpen = useSelector(useModalActor(), (s) => s.matches('open'))
  return (
    <button
      type="button"
      className={className}
      aria-haspopup="dialog"
      aria-expanded={isOpen}
      onClick={() => kit.send({ type: 'modal.open' })}
    >
      {label}
    </button>
  )
}
