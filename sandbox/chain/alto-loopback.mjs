// Preloaded into the bundler (alto) by sandbox/chain/bundler.ts (`node --import`): alto listens on 0.0.0.0 and
// the sandbox serves loopback only, so every server it opens is bound to 127.0.0.1 instead, and the address it
// got is written to stdout on a line of its own, after the marker the parent passes in WALLETSTATE_LISTEN_MARKER,
// with this process's id (its port may be 0: a free one).
import net from 'node:net'

const marker = process.env.WALLETSTATE_LISTEN_MARKER ?? 'listening'

const listen = net.Server.prototype.listen
net.Server.prototype.listen = function loopbackListen(...args) {
  const [first] = args
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    args[0] = { ...first, host: '127.0.0.1' }
  } else if (typeof first === 'number' || typeof first === 'string') {
    // listen(port, host?, backlog?, callback?): the host, when given, is the second argument.
    if (typeof args[1] === 'string') args[1] = '127.0.0.1'
    else args.splice(1, 0, '127.0.0.1')
  }
  this.once('listening', () => {
    const address = this.address()
    if (address !== null && typeof address === 'object') {
      process.stdout.write(`\n${marker} ${address.address}:${address.port} ${process.pid}\n`)
    }
  })
  return listen.apply(this, args)
}
