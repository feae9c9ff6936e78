/**
 * The Buy flow's built-in sample options and mocked quote (SPEC §8), under the name issue 19 gives them. They
 * live in src/utils/onrampSamples.ts: pure data and arithmetic that the onramp machine applies itself (a machine
 * imports no values from src/api), so its fallbacks are transitions of its chart.
 */
export { formatCents, mockQuote, ONRAMP_PROVIDERS, sampleOnrampOptions } from '../utils/onrampSamples'
