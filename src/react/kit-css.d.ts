// The stylesheet as a string (Vite's `?inline`), for builds whose types leave out `vite/client`.
declare module '*.css?inline' {
  const css: string
  export default css
}
