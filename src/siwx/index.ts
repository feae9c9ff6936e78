/**
 * `walletstate/siwx`: sign-in with the wallet (SPEC §1 `siwx`). Its own entry, so a host that does not sign
 * visitors in never bundles it; the kit loads its own sign-in code only when `siwx` is configured.
 */
export { createSiwe, type SiweOptions, type SiweSessionsApi } from './siwe'
export type { SiwxConfig, SiwxMessage, SiwxMessageData, SiwxMessageInput, SiwxSession } from './types'
