import type { TErrorCode } from '@wms/contracts';
import type { Rule } from 'antd/es/form';
import { getLanguage } from '../preferences/preferences';

/**
 * A form rule checked by hand instead of by a contract's zod schema (zod-rule.ts), for the few fields of the pages a
 * user sees first (the login): an empty value is REQUIRED_FIELD, otherwise `check` names what is wrong (null: fine).
 * The message comes from the error catalogue, which loads with the first failure. A test holds each such rule to the
 * zod rule of its contract schema.
 */
export function plainRule(field: string, check: (value: string) => TErrorCode | null): Rule {
  return {
    validator: async (_rule, raw: unknown) => {
      const value = raw === undefined || raw === null ? '' : String(raw);
      const code = value.trim() === '' ? 'REQUIRED_FIELD' : check(value);
      if (!code) return;
      const { fieldErrorText } = await import('./error-text');
      throw new Error(fieldErrorText(code, field, getLanguage()));
    },
  };
}
