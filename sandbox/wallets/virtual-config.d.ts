// The config modules server.ts serves to the wallet pages (see config.ts).
declare module 'virtual:walletstate-wallets/injected-config' {
  const config: import('./config.ts').InjectedWalletConfig
  export default config
}

declare module 'virtual:walletstate-wallets/wc-config' {
  const config: import('./config.ts').WcWalletConfig
  export default config
}

declare module 'virtual:walletstate-wallets/solana-config' {
  const config: import('./config.ts').SolanaWalletConfig
  export default config
}
