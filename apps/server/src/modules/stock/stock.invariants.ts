// The stock invariants check (`npm run check:stock`, tests): its SQL lives in stock.invariants.repository.ts; this
// path stays for the callers that import it.
export { checkStockInvariants, type TStockViolation } from './stock.invariants.repository';
