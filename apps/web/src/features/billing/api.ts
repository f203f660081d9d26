import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  billingRoutes as r,
  type TBillingContractInput,
  type TBillingPayment,
  type TBillingPlanInput,
  type TBillingRefundInput,
  type TContractRequestInput,
  type TNewebPayCheckout,
  type TTapPayCheckout,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';
import type { TTableQuery } from '../../shared/table/list-query';
import { billingKeys } from './overview-api';

export { billingKeys, useBillingOverview } from './overview-api';

export const fetchPayments = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.listPayments, { query: query as never }, { signal });

/** One record, polled while it is pending (the server confirms a TapPay charge with TapPay on each read). */
export function usePaymentResult(id: string | null) {
  return useQuery({
    enabled: !!id,
    queryKey: billingKeys.payment(id ?? ''),
    queryFn: ({ signal }) => apiCall(r.getPayment, { params: { id: id! } }, { signal }),
    refetchInterval: (q) => ((q.state.data as TBillingPayment | undefined)?.status === 'pending' ? 1500 : false),
  });
}

export const payTapPay = (body: TTapPayCheckout) => apiCall(r.payTapPay, { body });
export const payNewebPay = (body: TNewebPayCheckout) => apiCall(r.payNewebPay, { body });

export function useStopAutoRenew() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(r.stopAutoRenew, {}),
    onSuccess: () => qc.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

export function useCrmContract(customerId: string | null) {
  return useQuery({
    enabled: !!customerId,
    queryKey: billingKeys.crm(customerId ?? ''),
    queryFn: ({ signal }) => apiCall(r.crmGetContract, { params: { id: customerId! } }, { signal }),
  });
}

export function useSetContract(customerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TBillingContractInput) => apiCall(r.crmSetContract, { params: { id: customerId }, body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: billingKeys.crm(customerId) }),
  });
}

/** CRM: refund a payment (the key in the body makes a repeated request the same refund). */
export function useRefundPayment(customerId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, body }: { paymentId: string; body: TBillingRefundInput }) =>
      apiCall(r.crmRefundPayment, { params: { id: customerId, payment_id: paymentId }, body }),
    onSettled: () => qc.invalidateQueries({ queryKey: billingKeys.crm(customerId) }),
  });
}

/** The operator's list prices, for a seller without a contract. */
export function usePlans(enabled = true) {
  return useQuery({
    enabled,
    queryKey: billingKeys.plans(),
    queryFn: ({ signal }) => apiCall(r.plans, {}, { signal }),
  });
}

export const requestContract = (body: TContractRequestInput) => apiCall(r.requestContract, { body });

export function useCrmPlans() {
  return useQuery({ queryKey: billingKeys.crmPlans(), queryFn: ({ signal }) => apiCall(r.crmPlans, {}, { signal }) });
}

export function useSetPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TBillingPlanInput) => apiCall(r.crmSetPlan, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: billingKeys.crmPlans() }),
  });
}

export const fetchReconciliation = (query: TTableQuery, signal?: AbortSignal) =>
  apiCall(r.crmReconciliation, { query: query as never }, { signal });
export const runReconciliation = (day: string | undefined) =>
  apiCall(r.crmRunReconciliation, { body: day ? { day } : {} });
export const resolveReconciliation = (id: string, resolution: string) =>
  apiCall(r.crmResolveReconciliation, { params: { id }, body: { resolution } });
