import type { SimulationDisagreement } from '../utils/simulation'
import { formatBalanceChange } from '../utils/simulation'
import { BaseError, type BaseErrorParameters } from './base'

/**
 * "See before you sign": the transaction, simulated on the network before the wallet is asked, does not
 * do what the preview shows. Confirm is blocked; nothing was sent. `reason` says how it disagrees.
 */
export class SimulationDisagreementError extends BaseError {
  override name = 'SimulationDisagreementError'
  readonly reason: SimulationDisagreement

  constructor(reason: SimulationDisagreement, parameters: BaseErrorParameters = {}) {
    super(disagreementText(reason), parameters)
    this.reason = reason
  }
}

/** An amount with its symbol, unsigned: "5 USDC". */
const plain = (symbol: string, decimals: number, amount: bigint) =>
  formatBalanceChange({ symbol, decimals, delta: amount }).slice(1)

/** The text of a disagreement: what the simulation found against what the preview shows. */
function disagreementText(reason: SimulationDisagreement): string {
  const stop = 'Nothing was sent.'
  switch (reason.kind) {
    case 'reverted':
      return `This transaction would fail on the network (its simulation reverted). ${stop}`
    case 'unexpected':
      return `This transaction would also move ${formatBalanceChange(reason.change)}, which the preview does not show. ${stop}`
    case 'outflow': {
      const { symbol, decimals, delta } = reason.change
      return `This transaction would take ${plain(symbol, decimals, -delta)} from your account, not the ${plain(symbol, reason.shownDecimals, reason.shown)} shown. ${stop}`
    }
    case 'inflow': {
      const { symbol, decimals, delta } = reason.change
      return `This transaction would give ${plain(symbol, decimals, delta)}, less than the ${plain(symbol, reason.shownDecimals, reason.minimum)} shown. ${stop}`
    }
    case 'missing':
      return `This transaction would not move the ${plain(reason.symbol, reason.decimals, reason.amount)} the preview shows. ${stop}`
  }
}
