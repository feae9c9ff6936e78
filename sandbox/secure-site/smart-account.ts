import {
  type Address,
  concatHex,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  keccak256,
  type PublicClient,
  type SignableMessage,
  stringToHex,
  type TypedDataDefinition,
} from 'viem'
import {
  entryPoint07Abi,
  entryPoint07Address,
  getUserOperationHash,
  type SmartAccount,
  toSmartAccount,
} from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import {
  smartAccountAbi,
  smartAccountBytecode,
  smartAccountFactoryAbi,
  smartAccountFactoryBytecode,
} from './contracts/smart-account.gen.ts'

/*
 * The embedded wallet's smart account as viem's ERC-4337 account: its address, factory and signing, for its owner
 * and for an ERC-7715 permission's signer. Browser-safe (viem only): the secure site's server and the demo page
 * (the app's signer, spending with a permission) both use it.
 */

/**
 * The deterministic CREATE2 deployer (Arachnid's proxy) anvil ships at genesis. Smart accounts are created
 * through it, so an account's address follows from its owner alone, on any chain that has the proxy.
 */
export const CREATE2_DEPLOYER: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'
export const SMART_ACCOUNT_SALT: Hex = keccak256(stringToHex('walletstate.sandbox.smart-account.v1'))

/** Ours: the salt the smart-account factory itself is deployed with (through {@link CREATE2_DEPLOYER}). */
export const SMART_ACCOUNT_FACTORY_SALT: Hex = keccak256(
  stringToHex('walletstate.sandbox.smart-account-factory.v1'),
)
/**
 * The ERC-4337 factory of the smart accounts (`SandboxSmartAccountFactory`), where the sandbox chain deploys it:
 * `createAccount(owner)` creates the same account, at the same address, as a direct CREATE2 deployment does.
 */
export const SMART_ACCOUNT_FACTORY: Address = getContractAddress({
  opcode: 'CREATE2',
  from: CREATE2_DEPLOYER,
  salt: SMART_ACCOUNT_FACTORY_SALT,
  bytecode: smartAccountFactoryBytecode,
})
/** The EntryPoint the smart accounts answer to (v0.7, canonical address; `ENTRY_POINT` in the contract). */
export const SMART_ACCOUNT_ENTRY_POINT = {
  abi: entryPoint07Abi,
  address: entryPoint07Address,
  version: '0.7',
} as const

/** Creation code of the smart account owned by `owner`. */
export function smartAccountInitCode(owner: Address): Hex {
  return concatHex([smartAccountBytecode, encodeAbiParameters([{ type: 'address' }], [owner])])
}

/** The counterfactual address of `owner`'s smart account (CREATE2 through {@link CREATE2_DEPLOYER}). */
export function smartAccountAddress(owner: Address): Address {
  return getContractAddress({
    opcode: 'CREATE2',
    from: CREATE2_DEPLOYER,
    salt: SMART_ACCOUNT_SALT,
    bytecode: smartAccountInitCode(owner),
  })
}

/** Calldata for the deployer that creates `owner`'s smart account (also the ERC-6492 factory data). */
export function smartAccountDeployData(owner: Address): Hex {
  return concatHex([SMART_ACCOUNT_SALT, smartAccountInitCode(owner)])
}

/** The user operation's factory and its data: deploys `owner`'s smart account on its first operation. */
export function smartAccountFactoryArgs(owner: Address): { factory: Address; factoryData: Hex } {
  return {
    factory: SMART_ACCOUNT_FACTORY,
    factoryData: encodeFunctionData({
      abi: smartAccountFactoryAbi,
      functionName: 'createAccount',
      args: [owner],
    }),
  }
}

/**
 * A 65-byte signature of the right shape that recovers to nobody: what gas is estimated with before the owner
 * signs (the account runs the same ecrecover for it, and answers "signature failed" instead of reverting).
 */
const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

/** One call of a smart account's user operation. */
export interface AccountCall {
  to: Address
  value: bigint
  data: Hex
}

/**
 * `owner`'s smart account as viem's ERC-4337 account (`toSmartAccount`): its calls encoded as `execute` (one)
 * or `executeBatch` (several), the factory args while it is not deployed, and user operations signed by the
 * owner key (EIP-191 over viem's user-operation hash, what the contract's `validateUserOp` checks).
 */
export function toSandboxSmartAccount(client: PublicClient, privateKey: Hex): Promise<SmartAccount> {
  const owner = privateKeyToAccount(privateKey)
  return sandboxAccount(client, owner.address, {
    stub: STUB_SIGNATURE,
    sign: (hash) => owner.signMessage({ message: { raw: hash } }),
    signMessage: (message) => owner.signMessage({ message }),
    signTypedData: (typedData) => owner.signTypedData(typedData),
  })
}

/**
 * `owner`'s smart account driven by an ERC-7715 permission's signer (`signerKey`): its user operations carry
 * `0x01 ++ permissionId ++ the signer's signature`, which the account accepts only for a transfer of the
 * permission's token within what is left of its limit, until its expiry. It signs nothing else.
 */
export function toSandboxPermissionAccount(
  client: PublicClient,
  parameters: { owner: Address; signerKey: Hex; permissionId: Hex },
): Promise<SmartAccount> {
  const signer = privateKeyToAccount(parameters.signerKey)
  const prefix = concatHex(['0x01', parameters.permissionId])
  const refuse = async (): Promise<Hex> => {
    throw new Error('A permission signer signs user operations only')
  }
  return sandboxAccount(client, parameters.owner, {
    stub: concatHex([prefix, STUB_SIGNATURE]),
    sign: async (hash) => concatHex([prefix, await signer.signMessage({ message: { raw: hash } })]),
    signMessage: refuse,
    signTypedData: refuse,
  })
}

function sandboxAccount(
  client: PublicClient,
  owner: Address,
  signing: {
    stub: Hex
    /** The user operation's signature over its hash. */
    sign: (userOpHash: Hex) => Promise<Hex>
    signMessage: (message: SignableMessage) => Promise<Hex>
    signTypedData: (typedData: TypedDataDefinition) => Promise<Hex>
  },
): Promise<SmartAccount> {
  const address = smartAccountAddress(owner)
  return toSmartAccount({
    client,
    entryPoint: SMART_ACCOUNT_ENTRY_POINT,
    async getAddress() {
      return address
    },
    async encodeCalls(calls) {
      const [only] = calls
      if (calls.length === 1 && only !== undefined) {
        return encodeFunctionData({
          abi: smartAccountAbi,
          functionName: 'execute',
          args: [only.to, only.value ?? 0n, only.data ?? '0x'],
        })
      }
      return encodeFunctionData({
        abi: smartAccountAbi,
        functionName: 'executeBatch',
        args: [calls.map((call) => ({ target: call.to, value: call.value ?? 0n, data: call.data ?? '0x' }))],
      })
    },
    async getFactoryArgs() {
      return smartAccountFactoryArgs(owner)
    },
    async getStubSignature() {
      return signing.stub
    },
    async signMessage({ message }) {
      return signing.signMessage(message)
    },
    async signTypedData(typedData) {
      return signing.signTypedData(typedData as TypedDataDefinition)
    },
    async signUserOperation(parameters) {
      const { chainId = client.chain?.id, ...userOperation } = parameters
      if (chainId === undefined) throw new Error('The smart account needs a chain to sign for')
      const hash = getUserOperationHash({
        chainId,
        entryPointAddress: SMART_ACCOUNT_ENTRY_POINT.address,
        entryPointVersion: SMART_ACCOUNT_ENTRY_POINT.version,
        userOperation: { ...userOperation, sender: address },
      })
      return signing.sign(hash)
    },
  })
}
