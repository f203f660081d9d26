import { fieldLabel, type TLanguage } from '@wms/contracts';
import { useTranslation } from 'react-i18next';

/** Field labels come from the contracts' FIELD_LABELS, the same words the server's error messages use. */
export function useFieldLabel(): (field: string) => string {
  const { i18n } = useTranslation();
  return (field) => fieldLabel(field, i18n.language as TLanguage);
}
