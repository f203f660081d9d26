import { errorMessage, type TErrorCode, type TLanguage } from '@wms/contracts';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import { getLanguage } from '../preferences/preferences';

/** Which catalogue code a failed zod check maps to (the same codes the server answers with). */
export function issueCode(issue: z.core.$ZodIssue, value: unknown, tooShort: TErrorCode = 'INVALID_FIELD'): TErrorCode {
  const empty = value === undefined || value === null || value === '';
  if (empty) return 'REQUIRED_FIELD';
  if (issue.code === 'too_small') return tooShort;
  return 'INVALID_FIELD';
}

/** Validate a form field with the contract's zod schema; messages come from the shared error catalogue. */
export function zodRule(
  field: string,
  schema: z.ZodType,
  opts: { tooShort?: TErrorCode; lang?: () => TLanguage } = {},
): Rule {
  return {
    validator: async (_rule, raw: unknown) => {
      const value = typeof raw === 'string' && raw.trim() === '' ? undefined : raw;
      const result = schema.safeParse(value);
      if (result.success) return;
      const issue = result.error.issues[0];
      const code = issue ? issueCode(issue, value, opts.tooShort) : 'INVALID_FIELD';
      throw new Error(errorMessage(code, (opts.lang ?? getLanguage)(), { field }));
    },
  };
}

/** Validation of a user-chosen password: spec §5, length greater than 6. */
export function passwordRule(field: string, schema: z.ZodType): Rule {
  return zodRule(field, schema, { tooShort: 'PASSWORD_TOO_SHORT' });
}
