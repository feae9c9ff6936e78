/** SPEC §2 Account: the connected account. Balance and tabs arrive with the account capability. */
export function AccountView() {
  return (
    <div>
      <p className="ws-muted">No account is connected.</p>
    </div>
  )
}
