/**
 * What a connected visitor needs, in one chunk: the Account view and the host button's account name
 * (components/AccountNameLabel.tsx). Both are wanted from the moment a visitor is connected, so one fetch brings
 * them. One `import()` instead of two also keeps the host's first-click code in fewer files: a second lazy
 * import of the name label had the host's bundler (rolldown) split React's and the preload helper's modules out
 * of its entry (bench/peers: 10 first-click files instead of 8, +948 bytes gzip).
 */
export { default as AccountNameLabel } from '../components/AccountNameLabel'
export { default } from './Account'
