// The sandbox onramp partner page's script (served as it is, no build): posts the buyer's choice to this
// page's own server and shows the outcome. Every text it shows goes through textContent.
;(() => {
  const form = document.getElementById('pay')
  if (!(form instanceof HTMLFormElement)) return
  const id = form.dataset.order ?? ''
  const method = form.dataset.method ?? ''
  const message = document.getElementById('message')
  const error = document.getElementById('error')
  const buttons = [...form.querySelectorAll('button')]

  const say = (text) => {
    if (message) message.textContent = text
  }
  const complain = (text) => {
    if (error) error.textContent = text
  }
  const busy = (on) => {
    for (const button of buttons) button.disabled = on
  }
  /** Hides the fields and buttons once the order is settled; the messages stay. */
  const settle = () => {
    for (const child of [...form.children]) {
      if (child !== message && child !== error) child.hidden = true
    }
  }
  const closeSoon = () => setTimeout(() => window.close(), 1000)

  async function post(action, body) {
    const answer = await fetch(`/api/orders/${encodeURIComponent(id)}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const json = await answer.json().catch(() => ({}))
    if (!answer.ok) {
      throw new Error(typeof json.error === 'string' ? json.error : `The partner answered ${answer.status}`)
    }
    return json
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    complain('')
    busy(true)
    say('Processing your payment…')
    const fields = Object.fromEntries(new FormData(form))
    try {
      const order = await post('complete', { ...fields, paymentMethod: method })
      settle()
      say(`Purchase complete: ${order.purchaseAmount} ${order.purchaseCurrency} sent.`)
      closeSoon()
    } catch (failure) {
      say('')
      complain(failure instanceof Error ? failure.message : String(failure))
      busy(false)
    }
  })

  // Paid now, settled by the partner a few seconds later: the window closes while the order is pending.
  document.getElementById('later')?.addEventListener('click', async () => {
    complain('')
    if (!form.reportValidity()) return
    busy(true)
    say('Processing your payment…')
    const fields = Object.fromEntries(new FormData(form))
    try {
      await post('later', { ...fields, paymentMethod: method })
      settle()
      say('Payment received: your purchase completes in a few seconds. You can close this window.')
      closeSoon()
    } catch (failure) {
      say('')
      complain(failure instanceof Error ? failure.message : String(failure))
      busy(false)
    }
  })

  document.getElementById('fail')?.addEventListener('click', async () => {
    complain('')
    busy(true)
    try {
      await post('fail', {})
      settle()
      say('Purchase failed. You can close this window.')
      closeSoon()
    } catch (failure) {
      complain(failure instanceof Error ? failure.message : String(failure))
      busy(false)
    }
  })

  document.getElementById('cancel')?.addEventListener('click', () => {
    settle()
    say('Purchase cancelled. You can close this window.')
    window.close()
  })
})()
