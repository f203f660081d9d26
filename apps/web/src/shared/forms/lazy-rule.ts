import type { Rule, RuleObject } from 'antd/es/form';

/**
 * A form rule whose real rule loads the first time it validates: with it, a page's first load carries neither zod nor
 * the schemas and error catalogue its rules use (the login page above all). A failed load is tried again next time.
 */
export function lazyRule(load: () => Promise<Rule>): Rule {
  let loading: Promise<Rule> | null = null;
  return {
    validator: async (rule, value) => {
      loading ??= load().catch((err: unknown) => {
        loading = null;
        throw err;
      });
      const real = (await loading) as RuleObject;
      await real.validator?.(rule, value, () => {});
    },
  };
}
