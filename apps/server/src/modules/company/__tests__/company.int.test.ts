import { isValidTaxId } from '@wms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_ENGINE, type TTestContext } from '../../../test/harness';

let ctx: TTestContext;
beforeAll(async () => {
  // Nothing here waits on a job: no workers.
  ctx = await createTestContext({}, { jobs: false });
});
afterAll(() => ctx?.close());

describe('unified business number checksum', () => {
  it('accepts valid numbers (divisible by 5, and the 7th-digit-7 rule) and refuses others', () => {
    for (const v of ['04595257', '22099131', '10458575', '10458574']) expect(isValidTaxId(v), v).toBe(true);
    for (const v of ['04595258', '12345678', '1234567', '0459525A', '']) expect(isValidTaxId(v), v).toBe(false);
  });
});

describe(`company data (${TEST_ENGINE})`, () => {
  it('reads and updates the caller company; phones are stored normalised', async () => {
    const c = await ctx.newCustomer({ name: 'Old name' });
    const get = await ctx.api.companyRoutes.getCompany({ token: c.token });
    expect(get.json()).toMatchObject({ id: c.customerId, name: 'Old name', tax_id: '' });
    const put = await ctx.api.companyRoutes.updateCompany({
      body: {
        name: '示範股份有限公司',
        tax_id: '04595257',
        invoice_title: '示範股份有限公司',
        invoice_address: '臺北市信義區市府路 1 號',
        phone: '+886 2 2720 8889',
        fax: '02-2720-8890 #12',
        website: 'https://example.com.tw',
      },
      token: c.token,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ tax_id: '04595257', phone: '0227208889', fax: '0227208890#12' });
    expect((await ctx.api.companyRoutes.getCompany({ token: c.token })).json().name).toBe('示範股份有限公司');
  });

  it('names the invalid field: tax id checksum, phone, website, name', async () => {
    const c = await ctx.newCustomer();
    const base = { name: 'X', tax_id: '' };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ tax_id: '04595258' }, 'INVALID_FIELD', 'tax_id'],
      [{ tax_id: '1234' }, 'INVALID_FIELD', 'tax_id'],
      [{ phone: '12345' }, 'INVALID_FIELD', 'phone'],
      [{ fax: '0912-34' }, 'INVALID_FIELD', 'fax'],
      [{ website: 'javascript:alert(1)' }, 'INVALID_FIELD', 'website'],
      [{ name: '' }, 'REQUIRED_FIELD', 'name'],
    ];
    for (const [patch, code, field] of cases) {
      const res = await ctx.api.companyRoutes.updateCompany({
        body: { ...base, ...patch },
        token: c.token,
        lang: 'en',
      });
      expect(res.statusCode, field).toBe(400);
      expect(res.error(), field).toMatchObject({ code, params: { field } });
    }
    const msg = await ctx.api.companyRoutes.updateCompany({ body: { name: 'X', tax_id: '04595258' }, token: c.token });
    expect(msg.error().message).toBe('統一編號格式不正確');
  });

  it('is only the caller company: an employee is refused, another seller sees its own', async () => {
    const a = await ctx.newCustomer({ name: 'A co' });
    const b = await ctx.newCustomer({ name: 'B co' });
    await ctx.api.companyRoutes.updateCompany({ body: { name: 'A new', tax_id: '' }, token: a.token });
    expect((await ctx.api.companyRoutes.getCompany({ token: b.token })).json().name).toBe('B co');
    const e = await ctx.newEmployee();
    expect((await ctx.api.companyRoutes.getCompany({ token: e.token })).statusCode).toBe(403);
  });
});
