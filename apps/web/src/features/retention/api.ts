import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  retentionRoutes as r,
  type TPurgeRequest,
  type TRetentionKind,
  type TUpdateRetentionSettings,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { downloadFile } from '../../shared/download';

export const retentionKeys = {
  all: ['retention'] as const,
  preview: (months: number) => ['retention', 'preview', months] as const,
  settings: ['retention', 'settings'] as const,
};

export const usePreview = (months: number) =>
  useQuery({
    queryKey: retentionKeys.preview(months),
    queryFn: ({ signal }) => apiCall(r.previewRetention, { query: { months } }, { signal }),
  });

export const useSettings = () =>
  useQuery({
    queryKey: retentionKeys.settings,
    queryFn: ({ signal }) => apiCall(r.getRetentionSettings, {}, { signal }),
  });

export const useSaveSettings = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TUpdateRetentionSettings) => apiCall(r.updateRetentionSettings, { body }),
    onSuccess: (data) => qc.setQueryData(retentionKeys.settings, data),
  });
};

export const startPurge = (body: TPurgeRequest) => apiCall(r.purgeRetention, { body });

export const exportKind = (months: number, kind: TRetentionKind) =>
  downloadFile(r.exportRetention, `purge-${kind}.xlsx`, { query: { months, kind } });
