import { walletConnect } from 'wagmi/connectors'
import { KIT_EIP155_METHODS } from '../../constants'
import type { LazyWalletConnectParameters } from './walletConnect'

/** The part of WalletConnect that is its own chunk: wagmi's connector and, through it, the provider. */
export function createInnerWalletConnect(parameters: LazyWalletConnectParameters) {
  return walletConnect({
    projectId: parameters.projectId,
    relayUrl: parameters.relayUrl,
    metadata: parameters.metadata,
    // The kit draws its own QR code; WalletConnect's hosted modal and telemetry stay off.
    showQrModal: false,
    telemetryEnabled: false,
    customStoragePrefix: 'walletstate',
    // The methods the kit uses (SPEC §7): WalletConnect's defaults lack some, and a wallet approves only those asked.
    optionalMethods: [...KIT_EIP155_METHODS],
  } as Parameters<typeof walletConnect>[0])
}
