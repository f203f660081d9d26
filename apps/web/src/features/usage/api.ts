import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  usageRoutes as r,
  type TCorrectionInput,
  type TDisputeInput,
  type TRateCardInput,
  type TStatementStatus,
  type TStatementTapPayInput,
  type TUsageKind,
} from '@wms/contracts';
import { apiCall } from '../../shared/api/client';

export const usageKeys = {
  all: ['usage'] as const,
  cards: (customerId: string | null) => [...usageKeys.all, 'cards', customerId ?? 'default'] as const,
  month: (customerId: string | null, month: string | null) =>
    [...usageKeys.all, 'month', customerId ?? 'me', month ?? 'now'] as const,
  events: (customerId: string | null, month: string | undefined, kind: TUsageKind | null, page: number, size: number) =>
    [...usageKeys.all, 'events', customerId ?? 'me', month, kind, page, size] as const,
};

/** CRM: the default cards and (for a seller) the seller's own. */
export function useRateCards(customerId: string | null) {
  return useQuery({
    queryKey: usageKeys.cards(customerId),
    queryFn: ({ signal }) =>
      apiCall(r.crmRateCards, { query: customerId ? { customer_id: customerId } : {} }, { signal }),
  });
}

export function useSaveRateCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: TRateCardInput }) =>
      id ? apiCall(r.crmUpdateRateCard, { params: { id }, body }) : apiCall(r.crmCreateRateCard, { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...usageKeys.all, 'cards'] }),
  });
}

export function useDeleteRateCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall(r.crmDeleteRateCard, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: [...usageKeys.all, 'cards'] }),
  });
}

/**
 * A month's usage: the seller's own (no customerId) or, for the staff, one seller's. No month: this month in Taipei
 * time, as the server says (never this browser's clock).
 */
export function useMonthUsage(customerId: string | null, month: string | null) {
  const query = month ? { month } : {};
  return useQuery({
    queryKey: usageKeys.month(customerId, month),
    queryFn: ({ signal }) =>
      customerId
        ? apiCall(r.crmUsage, { params: { id: customerId }, query }, { signal })
        : apiCall(r.usage, { query }, { signal }),
  });
}

export function useUsageEvents(
  customerId: string | null,
  month: string | undefined,
  kind: TUsageKind | null,
  page: number,
  pageSize: number,
) {
  return useQuery({
    enabled: !!kind && !!month,
    placeholderData: keepPreviousData,
    queryKey: usageKeys.events(customerId, month, kind, page, pageSize),
    queryFn: ({ signal }) => {
      const query = { month, kind: kind ?? undefined, page, page_size: pageSize };
      return customerId
        ? apiCall(r.crmUsageEvents, { params: { id: customerId }, query }, { signal })
        : apiCall(r.usageEvents, { query }, { signal });
    },
  });
}

export const statementKeys = {
  all: [...usageKeys.all, 'statements'] as const,
  list: (customerId: string | null, page: number) => [...statementKeys.all, 'list', customerId ?? 'me', page] as const,
  events: (id: string, kind: TUsageKind | null, page: number) =>
    [...statementKeys.all, 'events', id, kind, page] as const,
};

/** Statements: the seller's own (no customerId) or, for the staff, one seller's. */
export function useStatements(customerId: string | null, page: number) {
  return useQuery({
    placeholderData: keepPreviousData,
    queryKey: statementKeys.list(customerId, page),
    queryFn: ({ signal }) =>
      customerId
        ? apiCall(r.crmStatements, { query: { customer_id: customerId, page, page_size: 10 } }, { signal })
        : apiCall(r.statements, { query: { page, page_size: 10 } }, { signal }),
  });
}

/** The events of one statement's line (its kind). */
export function useStatementEvents(staff: boolean, id: string | null, kind: TUsageKind | null, page: number) {
  return useQuery({
    enabled: !!id && !!kind,
    placeholderData: keepPreviousData,
    queryKey: statementKeys.events(id ?? '', kind, page),
    queryFn: ({ signal }) => {
      const input = { params: { id: id! }, query: { kind: kind ?? undefined, page, page_size: 10 } };
      return staff ? apiCall(r.crmStatementEvents, input, { signal }) : apiCall(r.statementEvents, input, { signal });
    },
  });
}

/** One daily storage snapshot (the document of a storage charge). */
export function useSnapshot(staff: boolean, id: string | null) {
  return useQuery({
    enabled: !!id,
    queryKey: [...usageKeys.all, 'snapshot', id],
    queryFn: ({ signal }) =>
      staff
        ? apiCall(r.crmSnapshot, { params: { id: id! } }, { signal })
        : apiCall(r.snapshot, { params: { id: id! } }, { signal }),
  });
}

export function useStatementActions() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: usageKeys.all });
  return {
    issue: useMutation({
      mutationFn: (body: { customer_id: string; month: string }) => apiCall(r.crmIssueStatement, { body }),
      onSuccess: done,
    }),
    void: useMutation({
      mutationFn: ({ id, reason }: { id: string; reason: string }) =>
        apiCall(r.crmVoidStatement, { params: { id }, body: { reason } }),
      onSuccess: done,
    }),
    pay: useMutation({
      mutationFn: ({ id, note }: { id: string; note: string }) =>
        apiCall(r.crmPayStatement, { params: { id }, body: { note } }),
      onSuccess: done,
    }),
  };
}

/** One of the seller's statements (the card page's `?statement=`); disabled without an id. */
export function useSellerStatement(id: string | null) {
  return useQuery({
    enabled: !!id,
    queryKey: [...statementKeys.all, 'one', id],
    queryFn: ({ signal }) => apiCall(r.statement, { params: { id: id! } }, { signal }),
  });
}

/** Pay one of the seller's issued statements by card (TPDirect's prime). */
export const payStatementTapPay = (id: string, body: TStatementTapPayInput) =>
  apiCall(r.payStatementTapPay, { params: { id }, body });

/** The NewebPay form paying one of the seller's issued statements. */
export const payStatementNewebPay = (id: string) => apiCall(r.payStatementNewebPay, { params: { id } });

/** The CRM's filters over every seller's statements. */
export interface TCrmStatementFilter {
  month?: string;
  status?: TStatementStatus;
  customer_id?: string;
  search?: string;
}

/** CRM: a page of every seller's statements, with the sums of everything the filters find. */
export function useCrmStatements(f: TCrmStatementFilter, page: number, pageSize: number) {
  return useQuery({
    placeholderData: keepPreviousData,
    queryKey: [...statementKeys.all, 'crm', f, page, pageSize],
    queryFn: ({ signal }) => apiCall(r.crmStatements, { query: { ...f, page, page_size: pageSize } }, { signal }),
  });
}

/** CRM dashboard: revenue per seller per month (the last `months` months). */
export function useRevenue(months = 6) {
  return useQuery({
    queryKey: [...statementKeys.all, 'revenue', months],
    queryFn: ({ signal }) => apiCall(r.crmRevenue, { query: { months } }, { signal }),
  });
}

/** The disputes of one statement (the seller's own, or for the staff any). */
export function useDisputes(staff: boolean, id: string) {
  return useQuery({
    queryKey: [...statementKeys.all, 'disputes', id],
    queryFn: ({ signal }) =>
      staff
        ? apiCall(r.crmStatementDisputes, { params: { id } }, { signal })
        : apiCall(r.statementDisputes, { params: { id } }, { signal }),
  });
}

export function useDisputeActions() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: usageKeys.all });
  return {
    open: useMutation({
      mutationFn: ({ id, body }: { id: string; body: TDisputeInput }) =>
        apiCall(r.disputeLine, { params: { id }, body }),
      onSuccess: done,
    }),
    correct: useMutation({
      mutationFn: ({ id, body }: { id: string; body: TCorrectionInput }) =>
        apiCall(r.crmCorrectDispute, { params: { id }, body }),
      onSuccess: done,
    }),
    reject: useMutation({
      mutationFn: ({ id, answer }: { id: string; answer: string }) =>
        apiCall(r.crmRejectDispute, { params: { id }, body: { answer } }),
      onSuccess: done,
    }),
  };
}
