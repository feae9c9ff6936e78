// wagmi's own read of a batch's status (viem's receipt formatting with it), in a chunk the demo loads with its
// first batch: not the page's weight (`npm run bench:size` measures the demo as a host).
export { getCallsStatus } from 'wagmi/actions'
