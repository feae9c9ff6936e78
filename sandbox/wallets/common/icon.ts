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
