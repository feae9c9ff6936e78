import { UpdateEmailStep } from '../components/UpdateEmailStep'

/** UpdateEmailSecondaryOtp: the code sent to the new address; accepted, it becomes the login address. */
export default function UpdateEmailSecondaryOtp() {
  return <UpdateEmailStep step="secondary" />
}
