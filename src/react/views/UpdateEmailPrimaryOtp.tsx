import { UpdateEmailStep } from '../components/UpdateEmailStep'

/** UpdateEmailPrimaryOtp: the code sent to the current address, proving the change is the owner's. */
export default function UpdateEmailPrimaryOtp() {
  return <UpdateEmailStep step="primary" />
}
