import bundleUrl from 'swagger-ui-dist/swagger-ui-bundle.js?url';
import type { TSwaggerUiBundle } from './swagger-ui-dist';

let loading: Promise<TSwaggerUiBundle> | null = null;

/**
 * Swagger UI's prebuilt bundle (1.7 MB, already minified) is emitted as a file and run as a script on the
 * reference page only: it never enters the app's chunks, so no other page (the login page above all) grows.
 */
export function loadSwaggerUi(): Promise<TSwaggerUiBundle> {
  loading ??= new Promise<TSwaggerUiBundle>((resolve, reject) => {
    if (window.SwaggerUIBundle) return resolve(window.SwaggerUIBundle);
    const script = document.createElement('script');
    script.src = bundleUrl;
    script.onload = () =>
      window.SwaggerUIBundle ? resolve(window.SwaggerUIBundle) : reject(new Error('Swagger UI did not load'));
    script.onerror = () => {
      loading = null;
      reject(new Error(`could not load ${bundleUrl}`));
    };
    document.head.append(script);
  });
  return loading;
}
