import type { TCompany, TUpdateCompany } from '@wms/contracts';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { writeAudit } from '../../platform/audit';
import { type TActor, tenantOf } from '../../platform/auth';
import { AppError } from '../../platform/errors';
import { findCustomer, type TCustomerRow, updateCustomer } from '../account';

export interface TCompanyDeps {
  db: Db;
}

function toCompany(r: TCustomerRow): TCompany {
  return {
    id: r.id,
    name: r.name,
    tax_id: r.tax_id ?? '',
    invoice_title: r.invoice_title ?? '',
    invoice_address: r.invoice_address ?? '',
    phone: r.phone ?? '',
    fax: r.fax ?? '',
    website: r.website ?? '',
    updated_at: r.updated_at.toISOString(),
  };
}

/** GET /api/corporation/: the caller's company data. */
export async function getCompany(deps: TCompanyDeps, actor: TActor): Promise<TCompany> {
  const row = await findCustomer(deps.db, tenantOf(actor));
  if (!row) throw new AppError('NOT_FOUND');
  return toCompany(row);
}

/** PUT /api/corporation/: replace the company data (tax id checksum and phone formats checked by the contract). */
export async function updateCompany(deps: TCompanyDeps, actor: TActor, input: TUpdateCompany): Promise<TCompany> {
  const customerId = tenantOf(actor);
  return withTx(deps.db, async (tx) => {
    const before = await findCustomer(tx, customerId);
    if (!before) throw new AppError('NOT_FOUND');
    const row = await updateCustomer(tx, customerId, {
      name: input.name,
      tax_id: input.tax_id || null,
      invoice_title: input.invoice_title ?? before.invoice_title,
      invoice_address: input.invoice_address ?? before.invoice_address,
      phone: input.phone ?? before.phone,
      fax: input.fax ?? before.fax,
      website: input.website ?? before.website,
    });
    await writeAudit(tx, actor, {
      action: 'update',
      entity: 'company',
      entityId: customerId,
      before: toCompany(before),
      after: toCompany(row!),
    });
    return toCompany(row!);
  });
}
