export declare const VENDOR_DIR: string
export declare function ensureWalletConnectBundle(options?: {
  force?: boolean
  log?: (line: string) => void
}): Promise<boolean>
