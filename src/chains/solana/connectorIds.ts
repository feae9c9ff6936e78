/**
 * The embedded wallet's Solana connector (issue 17): the login frame's account on Solana. Its own tiny module so
 * the kit's first-click code can name it without loading Solana's.
 */
export const EMBEDDED_SOLANA_CONNECTOR_ID = 'solana:embedded'
