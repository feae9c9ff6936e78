import type { Capability } from '../../machines/capability'
import { namesCapability } from './names'
import { onrampCapability } from './onramp'
import { swapCapability } from './swap'

/** The kit's own capabilities (the capability contract, src/machines/capability/contract.ts), in its entry. */
export const builtInCapabilities: readonly Capability[] = [swapCapability, onrampCapability, namesCapability]
