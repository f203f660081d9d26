import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  authRoutes,
  storeRoutes as r,
  type TCreateStoreMember,
  type TDirectPurchase,
  type TSaveStore,
  type TUpdateMemberProfile,
  type TUpdateStoreMember,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import { memberSession } from '../../shared/auth/session';
import type { TTableQuery } from '../../shared/table/list-query';

export const storeKeys = {
  all: ['store'] as const,
  admin: ['store', 'admin'] as const,
  products: ['store', 'products'] as const,
  orders: ['store', 'orders'] as const,
  members: ['store', 'members'] as const,
  catalog: ['store', 'catalog'] as const,
  memberOrders: ['store', 'member-orders'] as const,
};

/** POST /api/member-login/ and keep the member session (separate from the user session). */
export function useMemberLogin() {
  return useMutation({
    mutationFn: (body: { corp: string; email: string; password: string }) => apiCall(authRoutes.memberLogin, { body }),
    onSuccess: (res) => memberSession.set({ access: res.access, refresh: res.refresh, profile: res.profile }),
  });
}

function useWrite<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: storeKeys.all }) });
}

// ---- seller: /store-admin, /store-member, /direct-purchase ----

export const useStoreAdmin = () =>
  useQuery({ queryKey: storeKeys.admin, queryFn: ({ signal }) => apiCall(r.getStoreAdmin, {}, { signal }) });
export const useSaveStore = () => useWrite((body: TSaveStore) => apiCall(r.saveStore, { body }));
export const checkShortUrl = (shortUrl: string, signal?: AbortSignal) =>
  apiCall(r.checkShortUrl, { query: { short_url: shortUrl } }, { signal });
export const fetchStoreProducts = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listStoreProducts, { query }, { signal });
export const useUpdateListing = () =>
  useWrite((a: { id: string; online_listing: boolean; selling_price: string | null }) =>
    apiCall(r.updateStoreProduct, {
      params: { id: a.id },
      body: { online_listing: a.online_listing, selling_price: a.selling_price },
    }),
  );
export const fetchStoreOrders = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listStoreOrders, { query }, { signal });
export const fetchMembers = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listStoreMembers, { query }, { signal });
export const useSaveMember = () =>
  useWrite((a: { id?: string; body: TCreateStoreMember | TUpdateStoreMember }) =>
    a.id
      ? apiCall(r.updateStoreMember, { params: { id: a.id }, body: a.body as TUpdateStoreMember })
      : apiCall(r.createStoreMember, { body: a.body as TCreateStoreMember }),
  );
export const useResetMemberPassword = () =>
  useWrite((id: string) => apiCall(r.resetStoreMemberPassword, { params: { id } }));
export const useSellerCatalog = () =>
  useQuery({
    queryKey: [...storeKeys.catalog, 'seller'],
    queryFn: ({ signal }) => apiCall(r.sellerCatalog, {}, { signal }),
    retry: false,
  });
export const useSellerPurchase = () => useWrite((body: TDirectPurchase) => apiCall(r.sellerPurchase, { body }));

// ---- member portal ----

export const useMemberCatalog = () =>
  useQuery({
    queryKey: [...storeKeys.catalog, 'member'],
    queryFn: ({ signal }) => apiCall(r.memberCatalog, {}, { signal }),
  });
export const useMemberPurchase = () => useWrite((body: TDirectPurchase) => apiCall(r.memberPurchase, { body }));
export const fetchMemberOrders = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listMemberOrders, { query }, { signal });
export const useRecentMemberOrders = () =>
  useQuery({
    queryKey: [...storeKeys.memberOrders, 'recent'],
    queryFn: ({ signal }) => apiCall(r.listMemberOrders, { query: { page: 1, page_size: 10 } }, { signal }),
  });
export function useUpdateMemberProfile() {
  return useMutation({
    mutationFn: (body: TUpdateMemberProfile) => apiCall(r.updateMemberProfile, { body }),
    onSuccess: (profile) => memberSession.update({ profile }),
  });
}
export const useChangeMemberPassword = () =>
  useMutation({
    mutationFn: (body: { old_password: string; new_password: string }) => apiCall(r.changeMemberPassword, { body }),
  });
