import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { shopeeRoutes as r, type TShopeeShipSettings } from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const shopeeKeys = {
  all: ['shopee'] as const,
  shops: () => [...shopeeKeys.all, 'shops'] as const,
  orders: (id: string, state: string | undefined, page: number, pageSize: number) =>
    [...shopeeKeys.all, 'orders', id, state ?? 'all', page, pageSize] as const,
};

/** The seller's connected shops, refreshed every 5 s while the screen is open (a sync runs in the background). */
export function useShopeeShops() {
  return useQuery({
    queryKey: shopeeKeys.shops(),
    queryFn: ({ signal }) => apiCall(r.listShopeeShops, {}, { signal }),
    refetchInterval: 5000,
  });
}

export function useShopeeOrders(id: string | null, state: string | undefined, page: number, pageSize: number) {
  return useQuery({
    enabled: !!id,
    queryKey: shopeeKeys.orders(id ?? '', state, page, pageSize),
    queryFn: ({ signal }) =>
      apiCall(
        r.listShopeeOrders,
        {
          params: { id: id! },
          query: {
            page,
            page_size: pageSize,
            ...(state ? { state: state as 'created' | 'abnormal' | 'cancelled' | 'flagged' } : {}),
          },
        },
        { signal },
      ),
  });
}

function useWrite<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: shopeeKeys.all }) });
}

export const shopeeAuthUrl = () => apiCall(r.shopeeAuthUrl, {});
export const useConnectShop = () =>
  useWrite((body: { code: string; shop_id: number; first_sync_days: number }) =>
    apiCall(r.connectShopeeShop, { body }),
  );
export const useDisconnectShop = () => useWrite((id: string) => apiCall(r.disconnectShopeeShop, { params: { id } }));
export const useSyncShop = () => useWrite((id: string) => apiCall(r.syncShopeeShop, { params: { id } }));
export const useRetryOrders = () =>
  useWrite((a: { id: string; orderIds?: string[] }) =>
    apiCall(r.retryShopeeOrders, {
      params: { id: a.id },
      body: a.orderIds ? { order_ids: a.orderIds } : {},
    }),
  );
export const useSetShipMode = () =>
  useWrite((a: { id: string; ship_mode: 'pickup' | 'dropoff' | null }) =>
    apiCall(r.setShopeeShipMode, { params: { id: a.id }, body: { ship_mode: a.ship_mode } }),
  );

/** The pickup addresses and drop-off branches the shop can choose from (read from Shopee when the settings open). */
export function useShipOptions(id: string | null) {
  return useQuery({
    enabled: !!id,
    queryKey: [...shopeeKeys.all, 'ship-options', id ?? ''] as const,
    queryFn: ({ signal }) => apiCall(r.shopeeShipOptions, { params: { id: id! } }, { signal }),
    retry: false,
  });
}
export const useSaveShipSettings = () =>
  useWrite((a: { id: string; ship_mode: 'pickup' | 'dropoff' | null; ship_settings: TShopeeShipSettings }) =>
    apiCall(r.setShopeeShipMode, {
      params: { id: a.id },
      body: { ship_mode: a.ship_mode, ship_settings: a.ship_settings },
    }),
  );
