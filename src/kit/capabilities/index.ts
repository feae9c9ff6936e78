import type { Capability } from '../../machines/capability'
import { callsCapability } from './callsCapability'
import { namesCapability } from './namesCapability'
import { onrampCapability } from './onrampCapability'
import { payCapability } from './payCapability'
import { sendCapability } from './sendCapability'
import { signInCapability } from './signInCapability'
import { swapCapability } from './swapCapability'

/**
 * The kit's own capabilities (the capability contract, src/machines/capability/contract.ts), in its entry. Those
 * that need the kit's store are built by the composition root (Solana's connection, smart sessions).
 */
export const builtInCapabilities: readonly Capability[] = [
  swapCapability,
  onrampCapability,
  namesCapability,
  signInCapability,
  sendCapability,
  payCapability,
  callsCapability,
]
