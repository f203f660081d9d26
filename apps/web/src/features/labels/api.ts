import { useMutation, useQuery } from '@tanstack/react-query';
import { labelRoutes, type TLabelRequest, type TSendLabelsToPrinter } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const labelKeys = { all: ['labels'] as const };

export function useLabelSheets() {
  return useQuery({
    queryKey: [...labelKeys.all, 'sheets'],
    queryFn: () => apiCall(labelRoutes.listLabelSheets, { query: {} }),
  });
}

export function useLabelDocument(request: TLabelRequest | null) {
  return useQuery({
    queryKey: [...labelKeys.all, 'render', request],
    enabled: !!request && request.items.length > 0,
    queryFn: () => apiCall(labelRoutes.renderLabels, { body: request! }),
  });
}

/** "Send to printer": the labels' ZPL to the warehouse's label printer (raw TCP, by the server). */
export function useSendToPrinter() {
  return useMutation({
    mutationFn: (body: TSendLabelsToPrinter) => apiCall(labelRoutes.sendLabelsToPrinter, { body }),
  });
}

/** The print request travels in the URL of /product-print-preview/{data}: base64url of its JSON. */
export function encodePrintData(request: TLabelRequest): string {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodePrintData(data: string): TLabelRequest | null {
  try {
    const binary = atob(data.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as TLabelRequest;
    return Array.isArray(parsed.items) ? parsed : null;
  } catch {
    return null;
  }
}
