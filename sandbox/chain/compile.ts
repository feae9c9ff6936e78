import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as v from 'valibot'
import type { Abi, Hex } from 'viem'

/** Where the Solidity sources live. */
export const CONTRACTS_DIR = fileURLToPath(new URL('./contracts/', import.meta.url))

/** The deployable contracts, in the order the build file lists them. */
export const CONTRACT_NAMES = [
  'SandboxToken',
  'SandboxTether',
  'SandboxPunks',
  'ConstantProductPool',
  'SandboxWeth',
  'SandboxSwapRouter',
] as const
export type ContractName = (typeof CONTRACT_NAMES)[number]

export interface CompiledContract {
  abi: Abi
  bytecode: Hex
}

export interface CompileResult {
  /** solc's long version string, e.g. `0.8.37+commit.f401782d.Emscripten.clang`. */
  compiler: string
  sourceHash: string
  contracts: Record<ContractName, CompiledContract>
}

/** Compiler settings; `cancun` bytecode runs on anvil's default (newer) hardfork too. */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
} as const

/** The `.sol` files of `contracts/`, by file name (solc's source unit names, so `./X.sol` imports resolve). */
export function readSources(dir: string = CONTRACTS_DIR): Record<string, string> {
  const sources: Record<string, string> = {}
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.sol'))
    .sort()) {
    sources[file] = readFileSync(`${dir}/${file}`, 'utf8')
  }
  return sources
}

/** A digest of the sources and compiler settings; the build file records it so a stale build is noticed. */
export function hashSources(sources: Record<string, string>): string {
  const hash = createHash('sha256')
  hash.update(JSON.stringify(SETTINGS))
  for (const name of Object.keys(sources).sort()) hash.update(`${name}\0${sources[name]}\0`)
  return hash.digest('hex')
}

const SolcOutputSchema = v.object({
  errors: v.optional(
    v.array(
      v.object({ severity: v.string(), formattedMessage: v.optional(v.string()), message: v.string() }),
    ),
  ),
  contracts: v.optional(
    v.record(
      v.string(),
      v.record(
        v.string(),
        v.object({
          abi: v.array(v.unknown()),
          evm: v.object({ bytecode: v.object({ object: v.string() }) }),
        }),
      ),
    ),
  ),
})

/**
 * Compiles the sandbox contracts with solc-js (about 2-3 s: solc is loaded on demand, so importing this module
 * is cheap). Throws with solc's messages when a source does not compile.
 *
 * @example
 * const { contracts } = await compileContracts()
 * contracts.SandboxToken.bytecode // '0x6080...'
 */
export async function compileContracts(
  sources: Record<string, string> = readSources(),
): Promise<CompileResult> {
  const { default: solc } = await import('solc')
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SETTINGS,
  }
  const compile: (input: string) => string = solc.compile
  const output = v.parse(SolcOutputSchema, JSON.parse(compile(JSON.stringify(input))))
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) {
    throw new Error(
      `solc failed:\n${errors.map((error) => error.formattedMessage ?? error.message).join('\n')}`,
    )
  }
  const found: Partial<Record<ContractName, CompiledContract>> = {}
  for (const units of Object.values(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(units)) {
      const known = CONTRACT_NAMES.find((candidate) => candidate === name)
      if (known === undefined) continue
      found[known] = { abi: contract.abi as Abi, bytecode: `0x${contract.evm.bytecode.object}` }
    }
  }
  const contracts = {} as Record<ContractName, CompiledContract>
  for (const name of CONTRACT_NAMES) {
    const contract = found[name]
    if (contract === undefined) throw new Error(`solc produced no contract named ${name}`)
    contracts[name] = contract
  }
  const version: () => string = solc.version
  return { compiler: version(), sourceHash: hashSources(sources), contracts }
}
