/** The parts of Swagger UI (swagger-ui-dist's prebuilt bundle, which has no types) the reference page uses. */
export interface TSwaggerRequest {
  url: string;
  headers: Record<string, string>;
}

export interface TSwaggerUiOptions {
  domNode: HTMLElement;
  spec: object;
  deepLinking?: boolean;
  docExpansion?: 'list' | 'full' | 'none';
  defaultModelsExpandDepth?: number;
  displayOperationId?: boolean;
  filter?: boolean;
  validatorUrl?: string | null;
  requestInterceptor?: (request: TSwaggerRequest) => TSwaggerRequest;
}

/** What the bundle's UMD wrapper puts on `window` when it runs as a classic script. */
export type TSwaggerUiBundle = (options: TSwaggerUiOptions) => unknown;

declare global {
  interface Window {
    SwaggerUIBundle?: TSwaggerUiBundle;
  }
}
