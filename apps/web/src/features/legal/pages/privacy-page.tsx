import { LegalDocument } from '../legal-document';

/** /privacy: the privacy policy. */
export default function PrivacyPage() {
  return <LegalDocument page="privacy" />;
}
