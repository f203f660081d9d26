import { LegalDocument } from '../legal-document';

/** /service-rule: the service rules (terms). */
export default function ServiceRulePage() {
  return <LegalDocument page="service-rule" />;
}
