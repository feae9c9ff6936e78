/**
 * A view's way on: a secondary button (Edit, Cancel, Back) beside the primary one (Try again, Check again, the
 * flow's next step), which takes the rest of the row. Shared by the send and swap previews.
 *
 * @example
 * <ButtonPair secondary={{ label: 'Edit', onClick: edit }} primary={{ label: 'Try again', onClick: retry }} />
 */
export function ButtonPair({
  secondary,
  primary,
}: {
  secondary: { label: string; onClick: () => void }
  primary: { label: string; onClick: () => void }
}) {
  return (
    <div className="ws-row">
      <button type="button" className="ws-secondary" onClick={secondary.onClick}>
        {secondary.label}
      </button>
      <button type="button" className="ws-primary" style={{ flex: 1 }} onClick={primary.onClick}>
        {primary.label}
      </button>
    </div>
  )
}
