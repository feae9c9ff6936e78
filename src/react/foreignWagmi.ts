/*
 * The warning for a KitRoot inside a host's WagmiProvider with another config than the kit's: a page whose set-up
 * needs it loads it (KitRoot imports it then), every other page never does.
 */

let warnedForeignWagmi = false

/** Once a page: the host's wagmi hooks cannot see a connection made in another wagmi config than theirs. */
export function warnForeignWagmi(): void {
  if (warnedForeignWagmi) return
  warnedForeignWagmi = true
  console.warn(
    "[walletstate] <KitRoot> is inside a WagmiProvider whose config is not the kit's: your wagmi hooks will not see the kit's connection. Pass your config to the kit: createKitMachine({ ..., wagmiConfig }).",
  )
}
