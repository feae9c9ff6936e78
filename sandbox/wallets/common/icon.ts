/** The dev wallets' icon (EIP-6963 wants a data URI; an SVG scales everywhere). */
const SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">',
  '<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">',
  '<stop offset="0" stop-color="#7c5cff"/><stop offset="1" stop-color="#22c3a6"/></linearGradient></defs>',
  '<rect width="96" height="96" rx="22" fill="url(#g)"/>',
  '<path d="M20 30h56a6 6 0 0 1 6 6v30a6 6 0 0 1-6 6H20a6 6 0 0 1-6-6V36a6 6 0 0 1 6-6z" fill="#fff" opacity=".92"/>',
  '<rect x="56" y="44" width="26" height="14" rx="7" fill="#1d1b2e"/><circle cx="64" cy="51" r="3" fill="#22c3a6"/>',
  '</svg>',
].join('')

export const DEV_WALLET_ICON = `data:image/svg+xml;base64,${btoa(SVG)}`

/** The Solana dev wallet's icon: the same card on Solana's gradient, so the two are told apart at a glance. */
const SOLANA_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">',
  '<defs><linearGradient id="s" x1="0" y1="1" x2="1" y2="0">',
  '<stop offset="0" stop-color="#9945ff"/><stop offset="1" stop-color="#14f195"/></linearGradient></defs>',
  '<rect width="96" height="96" rx="22" fill="url(#s)"/>',
  '<g fill="#fff" opacity=".92"><path d="M30 28h44l-8 9H22z"/><path d="M22 44h44l8 9H30z"/>',
  '<path d="M30 60h44l-8 9H22z"/></g>',
  '</svg>',
].join('')

export const SOLANA_DEV_WALLET_ICON: `data:image/svg+xml;base64,${string}` = `data:image/svg+xml;base64,${btoa(SOLANA_SVG)}`
