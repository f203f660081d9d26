import { TicketDesk } from '../components/ticket-desk';

/** /bug: the support desk's bug tickets. */
export default function BugPage() {
  return <TicketDesk kind="bug" />;
}
