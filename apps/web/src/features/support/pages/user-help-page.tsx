import { TicketDesk } from '../components/ticket-desk';

/** /user-help: the support desk's help tickets. */
export default function UserHelpPage() {
  return <TicketDesk kind="help" />;
}
