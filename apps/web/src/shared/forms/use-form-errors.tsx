import type { FormInstance } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';

// Shown only after a failed call: loaded then (a page's first load, /login's above all, does without it).
const Alert = lazy(() => import('antd/es/alert'));

/**
 * Show a failed call on the form: the server's translated error under its field (`params.field`) when the form
 * has that field, otherwise in an alert above the form (render `formError`).
 */
export function useFormErrors(form: FormInstance) {
  const [message, setMessage] = useState<string | null>(null);

  const showError = useCallback(
    // The error catalogue loads with the first failure (error-text.ts), not with every form page (/login).
    async (err: unknown) => {
      const { errorField, errorText } = await import('./error-text');
      const text = errorText(err);
      const field = errorField(err);
      const names = Object.keys(form.getFieldsValue(true) as object);
      if (field && names.includes(field)) {
        form.setFields([{ name: field, errors: [text] }]);
        setMessage(null);
      } else {
        setMessage(text);
      }
    },
    [form],
  );
  const clearError = useCallback(() => setMessage(null), []);

  const formError = message ? (
    <Suspense fallback={null}>
      <Alert type="error" showIcon title={message} data-testid="form-error" style={{ marginBottom: 16 }} />
    </Suspense>
  ) : null;
  return { showError, clearError, formError };
}
