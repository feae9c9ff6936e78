import * as api from '../errors/api'
import * as base from '../errors/base'
import * as connection from '../errors/connection'
import * as frame from '../errors/frame'
import * as names from '../errors/names'
import * as onramp from '../errors/onramp'
import * as pay from '../errors/pay'
import * as send from '../errors/send'
import * as session from '../errors/session'
import * as signIn from '../errors/signIn'
import * as solana from '../errors/solana'
import * as swap from '../errors/swap'

type ErrorClass = new (...args: never[]) => Error

/**
 * The kit's error classes by name (their `name` field), so an error read back from a recording is an
 * instance of its class again and the guards that test `instanceof` decide as they did.
 */
let byName: Map<string, ErrorClass> | undefined

export function kitErrorClass(name: string): ErrorClass | undefined {
  byName ??= collect()
  return byName.get(name)
}

function collect() {
  const map = new Map<string, ErrorClass>()
  for (const module of [
    api,
    base,
    connection,
    frame,
    names,
    onramp,
    pay,
    send,
    session,
    signIn,
    solana,
    swap,
  ]) {
    for (const value of Object.values(module)) {
      if (typeof value !== 'function' || !(value.prototype instanceof Error)) continue
      const ErrorClass = value as ErrorClass
      // The `name` is an instance field: read it from an instance made without running the constructor.
      const probe = Object.create(ErrorClass.prototype) as Error
      const name = (() => {
        try {
          return new (ErrorClass as unknown as new (message: string) => Error)('probe').name
        } catch {
          return probe.name
        }
      })()
      if (name && !map.has(name)) map.set(name, ErrorClass)
      if (!map.has(ErrorClass.name)) map.set(ErrorClass.name, ErrorClass)
    }
  }
  return map
}
