import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  catalogRoutes as r,
  type TBatchUpdate,
  type TCreatePackagingMaterial,
  type TCreateProduct,
  type TCreateProductCategory,
  type TUpdatePackagingMaterial,
  type TUpdateProduct,
  type TUpdateProductCategory,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { productKeys } from '../../shared/pickers/api';
import type { TTableQuery } from '../../shared/table/list-query';

/** Query keys of the catalogue screens; products are the product pickers' key (shared/pickers/api.ts). */
export const catalogKeys = {
  all: ['catalog'] as const,
  categories: ['catalog', 'categories'] as const,
  products: productKeys.all,
  packaging: ['catalog', 'packaging'] as const,
};

export const fetchCategories = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listProductCategories, { query }, { signal });
export const fetchProducts = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listProducts, { query }, { signal });
export const fetchPackaging = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listPackagingMaterials, { query }, { signal });

function useWrite<A, R = unknown>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: catalogKeys.all }) });
}

export function useCategoryOptions() {
  return useQuery({
    queryKey: [...catalogKeys.categories, 'options'],
    queryFn: () => apiCall(r.listProductCategories, { query: { page_size: 100 } }),
    select: (d) => d.results.map((c) => ({ value: c.id, label: `${c.code} ${c.name}` })),
  });
}

export const useSaveCategory = () =>
  useWrite((a: { id?: string; body: TCreateProductCategory | TUpdateProductCategory }) =>
    a.id
      ? apiCall(r.updateProductCategory, { params: { id: a.id }, body: a.body })
      : apiCall(r.createProductCategory, { body: a.body as TCreateProductCategory }),
  );
export const useDeleteCategory = () => useWrite((id: string) => apiCall(r.deleteProductCategory, { params: { id } }));

export const useSaveProduct = () =>
  useWrite((a: { id?: string; body: TCreateProduct | TUpdateProduct }) =>
    a.id
      ? apiCall(r.updateProduct, { params: { id: a.id }, body: a.body })
      : apiCall(r.createProduct, { body: a.body as TCreateProduct }),
  );
export const useDeleteProducts = () => useWrite((ids: string[]) => apiCall(r.bulkDeleteProducts, { body: { ids } }));

export const useSavePackaging = () =>
  useWrite((a: { id?: string; body: TCreatePackagingMaterial | TUpdatePackagingMaterial }) =>
    a.id
      ? apiCall(r.updatePackagingMaterial, { params: { id: a.id }, body: a.body })
      : apiCall(r.createPackagingMaterial, { body: a.body as TCreatePackagingMaterial }),
  );
export const useDeletePackaging = () =>
  useWrite((id: string) => apiCall(r.deletePackagingMaterial, { params: { id } }));

export const usePreviewBatch = () =>
  useMutation({ mutationFn: (body: TBatchUpdate) => apiCall(r.previewBatchUpdate, { body }) });
export const useApplyBatch = () => useWrite((body: TBatchUpdate) => apiCall(r.applyBatchUpdate, { body }));

export function useInvalidateCatalog() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: catalogKeys.all });
}
