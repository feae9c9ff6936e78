import { useKitActor } from '../context'

/** A short explanation for first-time visitors, reached from Connect. */
export default function WhatIsAWallet() {
  const kit = useKitActor()
  return (
    <div>
      <p className="ws-muted">
        A wallet holds the keys to your digital assets and lets you sign in to apps without a password. Your
        keys stay in your wallet: this app only asks it to sign.
      </p>
      <p className="ws-muted">
        Use a browser extension, a wallet app on your phone (scan its QR code), or sign in with e-mail to get
        an embedded wallet.
      </p>
      <button type="button" className="ws-primary" onClick={() => kit.send({ type: 'router.back' })}>
        Got it
      </button>
    </div>
  )
}
