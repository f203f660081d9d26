import { TicketDesk } from '../components/ticket-desk';

/** /request: the support desk's request tickets. */
export default function RequestPage() {
  return <TicketDesk kind="request" />;
}
