// The stylesheet as a string (Vite's `?inline`), for builds whose types leave out `vite/client`.
declare module '*.css?inline' {
  const css: string
  export default css
}

// A file's text as a string (Vite's `?raw`): the host button's labels (components/ConnectButton.tsx).
declare module '*.json?raw' {
  const text: string
  export default text
}
