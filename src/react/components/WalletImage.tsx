import { useState } from 'react'
import type { ChosenWallet } from '../../machines/connection'
import { assetImageUrl } from '../../utils/images'
import { useKitConfig } from '../hooks'

/** A wallet's image: its own (`imageUrl`), else the provider's of its SPEC §3 `imageId` (getAssetImage). */
export function useWalletImageSrc(
  wallet: Pick<ChosenWallet, 'imageUrl' | 'imageId'> | undefined,
): string | undefined {
  const { endpoints, projectId } = useKitConfig()
  return wallet?.imageUrl ?? assetImageUrl(endpoints, projectId, wallet?.imageId)
}

/**
 * A wallet's icon, or its initial when there is none or it fails to load. Decorative: the wallet's name is
 * always next to it as text.
 */
export function WalletImage({
  name,
  src,
  size = 32,
}: {
  name: string
  src?: string | undefined
  size?: number
}) {
  const [failed, setFailed] = useState(false)
  const style = { width: size, height: size, borderRadius: 8, flex: 'none' as const }
  if (!src || failed) {
    return (
      <span className="ws-wallet-fallback" aria-hidden="true" style={style}>
        {(name.trim()[0] ?? '?').toUpperCase()}
      </span>
    )
  }
  return <img src={src} alt="" width={size} height={size} style={style} onError={() => setFailed(true)} />
}
