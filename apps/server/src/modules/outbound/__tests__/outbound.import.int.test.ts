import { fieldLabel, type TImportField, type TOrder, type TOrderDetail } from '@wms/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../db/client';
import { ecommerce_platforms, products } from '../../../db/schema';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { importFile, outboundWorld, type TWorld, xlsx } from './factories';

let ctx: TTestContext;
let w: TWorld;

beforeAll(async () => {
  ctx = await createTestContext();
  w = await outboundWorld(ctx);
  await w.put([
    { productId: w.plain.id, locationId: w.loc.A.id, expiryDate: null, quantity: 6 },
    { productId: w.phone.id, locationId: w.loc.B.id, expiryDate: null, quantity: 5 },
  ]);
}, 60_000);
afterAll(() => ctx?.close());

const zh = (f: TImportField) => fieldLabel(f, 'zh-TW');
const orderCount = async () =>
  Number(
    (
      await queryRows<{ n: number }>(
        ctx.deps.database.db,
        sql`select count(*)::int as n from outbound_orders where customer_id = ${w.customerId}`,
      )
    )[0]!.n,
  );
const list = async (search: string) =>
  (
    (await ctx.api.outboundRoutes.listOrders({ query: { search, page_size: '100' }, token: w.token })).json() as {
      results: TOrder[];
    }
  ).results;

/** The standard template in Traditional Chinese (a required mark on one header, as the template writes it). */
const header = [
  `${zh('platform_order_number')} *`,
  zh('recipient_name'),
  zh('recipient_phone'),
  zh('recipient_postcode'),
  zh('recipient_address'),
  zh('logistics_provider'),
  zh('cod'),
  zh('cod_amount'),
  zh('product'),
  zh('quantity'),
];

describe('order import', () => {
  it('imports good rows grouped into orders, with a progress bar that ends full', async () => {
    const file = await xlsx([
      header,
      ['IMP-1', '王小明', '0912-345-678', '100', '台北市中正區', 'TCAT', 'N', null, w.plain.number, 2],
      ['IMP-2', '陳小華', '886922333444', '40341', '台中市西區', '黑貓宅急便', 'Y', 350, w.kit.number, 1],
      ['IMP-1', '王小明', '0912-345-678', '100', '台北市中正區', 'TCAT', 'N', null, w.phone.number, 1],
      ['IMP-3', '林一', '02-2345-6789', '106', '台北市大安區', null, null, null, w.plain.barcode, 3],
    ]);
    const job = await importFile(ctx, w.token, file);
    expect(job.error).toBeNull();
    expect(job).toMatchObject({
      state: 'succeeded',
      result: { rows: 4, orders: 3, created: 3, skipped_duplicates: 0 },
    });
    expect(job.progress).toBe(job.total);
    const [one] = await list('IMP-1');
    expect(one).toMatchObject({
      line_count: 2,
      unit_count: 3,
      recipient_phone: '0912345678',
      logistics_provider_code: 'TCAT',
    });
    const two = (await list('IMP-2'))[0]!;
    expect(two).toMatchObject({
      recipient_phone: '0922333444',
      cod: true,
      cod_amount: '350.00',
      status: 'pending_export',
    });
    const detail = (
      await ctx.api.outboundRoutes.getOrder({ params: { id: one!.id }, token: w.token })
    ).json() as TOrderDetail;
    expect(detail.lines.map((l) => [l.line_no, l.product_number, l.quantity])).toEqual([
      [1, w.plain.number, 2],
      [2, w.phone.number, 1],
    ]);
  });

  it('never duplicates a re-imported platform order: existing ones are skipped, new ones added', async () => {
    const before = await orderCount();
    const file = await xlsx([
      header,
      ['IMP-1', '王小明', '0912345678', '100', '台北市', null, null, null, w.plain.number, 2],
      ['IMP-4', '新客人', '0911111111', '100', '台北市', null, null, null, w.plain.number, 1],
      ['IMP-3', '林一', '0223456789', '106', '台北市', null, null, null, w.plain.number, 3],
    ]);
    const job = await importFile(ctx, w.token, file);
    expect(job.result).toMatchObject({ orders: 3, created: 1, skipped_duplicates: 2 });
    expect(await orderCount()).toBe(before + 1);
    expect(await list('IMP-1')).toHaveLength(1);
  });

  it('rejects a file with bad rows, naming each with its row and the spec message, and writes nothing', async () => {
    const bulky = await w.f.product({ number: 'BULKY-1' });
    await ctx.deps.database.db.update(products).set({ volume_required: true }).where(eq(products.id, bulky.id));
    const before = await orderCount();
    const wide = [...header, zh('platform'), zh('channel'), zh('consignment_number')];
    const ok = ['BAD-0', '好', '0912345678', '100', '台北', null, null, null, w.plain.number, 1, null, null, null];
    const file = await xlsx([
      wide,
      ok, // row 2 is fine
      ['BAD-1', '甲', '0912345678', '100', '台北', null, null, null, 'NO-SUCH-SKU', 1, null, null, null], // 3
      ['BAD-2', '乙', '0912345678', '100', '台北', null, null, null, w.plain.number, 0, null, null, null], // 4
      ['BAD-3', '丙', '0912345678', '100', '台北', null, null, null, w.plain.number, 1, 'MOMO', null, null], // 5
      ['BAD-4', '丁', '0912345678', '100', '台北', null, null, null, w.plain.number, 1, null, 'telepathy', null], // 6
      ['BAD-5', '戊', '0912345678', '100', '台北', 'PIGEON', null, null, w.plain.number, 1, null, null, null], // 7
      ['BAD-6', '己', '0912345678', '100', null, null, null, null, w.plain.number, 1, null, null, null], // 8
      ['BAD-7', '庚', null, '1', '台北', null, null, null, w.plain.number, 1, null, null, null], // 9
      ['BAD-8', '辛', '0912345678', '100', '台北', null, null, null, 'BULKY-1', 1, null, null, null], // 10
      ['BAD-9', '壬', '0912345678', '100', '台北', null, 'Y', null, w.plain.number, 1.5, null, null, 'CN1'], // 11
      ['BAD-10', '癸', '0912345678', '100', '台北', null, null, null, w.plain.number, 1, null, null, 'CN1'], // 12
      [null, '子', '0912345678', '100', '台北', null, null, null, w.plain.number, 1, null, null, null], // 13
    ]);
    const job = await importFile(ctx, w.token, file);
    expect(job.state).toBe('failed');
    expect(job.error?.code).toBe('IMPORT_REJECTED');
    const errors = job.error!.params!.errors!;
    expect(errors.map((e) => [e.row, e.code, e.field])).toEqual([
      [3, 'PRODUCT_ABNORMAL', 'product'],
      [4, 'ABNORMAL_QUANTITY', 'quantity'],
      [5, 'PLATFORM_ABNORMAL', 'platform'],
      [6, 'CHANNEL_ABNORMAL', 'channel'],
      [7, 'PATHWAY_ABNORMAL', 'logistics_provider'],
      [8, 'REQUIRED_FIELD', 'recipient_address'],
      [9, 'REQUIRED_FIELD', 'recipient_phone'],
      [9, 'INVALID_FIELD', 'recipient_postcode'],
      [10, 'REQUIRED_FIELD', 'volume'],
      [11, 'REQUIRED_FIELD', 'cod_amount'],
      [11, 'ABNORMAL_QUANTITY', 'quantity'],
      [12, 'DUPLICATE_VALUE', 'consignment_number'],
      [13, 'REQUIRED_FIELD', 'platform_order_number'],
    ]);
    expect(job.error!.params!.count).toBe(13);
    expect(errors[0]!.message).toBe('商品資料異常: NO-SUCH-SKU');
    expect(errors[1]!.message).toBe('數量異常: 0');
    expect(await orderCount()).toBe(before);
  });

  it('rejects a file without a required column, naming the header row', async () => {
    const job = await importFile(
      ctx,
      w.token,
      await xlsx([
        ['Order', 'Qty'],
        ['X', 1],
      ]),
    );
    expect(job.error?.code).toBe('IMPORT_REJECTED');
    expect(job.error!.params!.errors!.map((e) => [e.row, e.field])).toContainEqual([1, 'platform_order_number']);
    const bad = await ctx.api.outboundRoutes.importOrders({
      body: { file_base64: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]).toString('base64') },
      token: w.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.error().code).toBe('IMPORT_FILE_INVALID');
  });

  it("imports a seller's own layout saved per channel: title row, line-broken headers, SKU placeholders", async () => {
    const shopee = [
      ['蝦皮訂單匯出 2026-11-22'],
      [
        '訂單\n編號',
        '收件者\n姓名',
        '收件者電話',
        '收件地址',
        '郵遞區號',
        '商品選項貨號',
        '主商品貨號',
        '數量',
        '付款方式',
        '買家總支付金額',
      ],
      ['240101AAA', '黃小姐', '886933222111', '高雄市苓雅區', '802', '見選項', w.plain.number, 1, '貨到付款', 590],
      ['240101AAA', '黃小姐', '886933222111', '高雄市苓雅區', '802', w.phone.number, '-', 1, '貨到付款', 590],
      ['240101BBB', '張先生', '0955666777', '台南市東區', '701', '-', w.plain.number, 2, '信用卡', 300],
    ];
    const file = await xlsx(shopee);
    const inspect = await ctx.api.outboundRoutes.inspectImportFile({
      body: { file_base64: file.toString('base64'), header_row: 2 },
      token: w.token,
    });
    const seen = inspect.json();
    expect(seen.headers.slice(0, 2)).toEqual(['訂單 編號', '收件者 姓名']);
    expect(seen.suggested.product).toEqual(['商品選項貨號', '主商品貨號']);
    expect(seen.samples[0]![0]).toBe('240101AAA');
    const form = await ctx.api.outboundRoutes.createImportForm({
      body: {
        name: 'Shopee TW',
        platform_id: w.shop.id,
        header_row: 2,
        mapping: { ...seen.suggested, recipient_name: ['收件者\n姓名'], cod: ['付款方式'] },
      },
      token: w.token,
    });
    expect(form.statusCode, form.body).toBe(201);
    expect(form.json()).toMatchObject({ platform_code: 'SHOPEE', mapping: { recipient_name: ['收件者 姓名'] } });
    // one form per channel
    const again = await ctx.api.outboundRoutes.createImportForm({
      body: { name: 'dup', platform_id: w.shop.id, mapping: seen.suggested },
      token: w.token,
    });
    expect(again.error()).toMatchObject({ code: 'DUPLICATE_VALUE', params: { field: 'platform_id' } });

    const job = await importFile(ctx, w.token, file, { platform_id: w.shop.id });
    expect(job.error).toBeNull();
    expect(job.result).toMatchObject({ rows: 3, orders: 2, created: 2 });
    const [a] = await list('240101AAA');
    expect(a).toMatchObject({
      platform_code: 'SHOPEE',
      channel: 'ecommerce',
      recipient_name: '黃小姐',
      recipient_phone: '0933222111',
      cod: true, // 付款方式 貨到付款; the amount to collect is the order's total
      cod_amount: '590.00',
      total_amount: '590.00',
      unit_count: 2,
    });
    // the same platform order number without a platform is another order; with it, a duplicate
    expect((await list('240101BBB'))[0]).toMatchObject({ cod: false, cod_amount: null, total_amount: '300.00' });
    const job2 = await importFile(ctx, w.token, file, { platform_id: w.shop.id });
    expect(job2.result).toMatchObject({ created: 0, skipped_duplicates: 2 });
  });

  it("imports Shopee Taiwan's Order.toship export with the suggested mapping on the first try", async () => {
    // The header row of Seller Centre's 訂單 export (one row per item), as listed by public importers of it; the
    // phone header carries a line break and a note, as the file does.
    const phoneHeader = '收件者電話\n(本資料僅供出貨使用，請勿用於其他用途)';
    const headers = [
      '訂單編號',
      '訂單狀態',
      '熱門商品',
      '退貨 / 退款狀態',
      '買家帳號',
      '訂單成立日期',
      '商品總價',
      '買家支付運費',
      '蝦皮補助運費',
      '退貨運費',
      '買家總支付金額',
      '蝦皮補貼金額',
      '蝦幣折抵',
      '銀行信用卡活動折抵',
      '優惠代碼',
      '賣家負擔優惠券',
      '賣家負擔蝦幣回饋券',
      '蝦皮負擔優惠券',
      '成交手續費',
      '其他服務費',
      '金流與系統處理費',
      '分期付款期數',
      '金流與系統處理費率',
      '成交手續費規則',
      '名稱',
      '商品名稱',
      '商品ID',
      '商品選項名稱',
      '規格ID',
      '蝦皮商品編碼(商品ID_規格ID)',
      '商品原價',
      '商品活動價格',
      '主商品貨號',
      '商品選項貨號',
      '數量',
      '退貨數量',
      '促銷組合指標',
      '蝦皮促銷組合折扣:促銷組合標籤',
      '收件地址',
      phoneHeader,
      '蝦皮專線和包裹查詢碼',
      '取件門市店號',
      '城市',
      '行政區',
      '郵遞區號',
      '收件者姓名',
      '寄送方式',
      '出貨方式',
      '備貨時間',
      '付款方式',
      '最晚出貨日期',
      '包裹查詢號碼',
      '買家付款時間',
      '實際出貨時間',
      '訂單完成時間',
      '買家備註',
      '備註',
    ];
    const row = (o: Record<string, unknown>) => headers.map((h) => o[h] ?? null);
    const order = {
      訂單編號: '2611220ABCDEF',
      訂單狀態: '待出貨',
      訂單成立日期: '2026-11-22 10:15',
      買家總支付金額: 880,
      收件地址: '台北市信義區松仁路100號',
      [phoneHeader]: '0912345678',
      郵遞區號: '110',
      收件者姓名: '蔡小姐',
      寄送方式: '黑貓宅急便',
      出貨方式: '賣家自行安排物流',
      付款方式: '貨到付款',
      買家備註: '請下午送達',
    };
    const file = await xlsx([
      headers,
      row({
        ...order,
        商品名稱: '烏龍茶',
        主商品貨號: w.plain.number,
        商品選項貨號: '見選項',
        數量: 2,
        商品活動價格: 290,
      }),
      row({ ...order, 商品名稱: '手機', 主商品貨號: '-', 商品選項貨號: w.phone.number, 數量: 1, 商品活動價格: 300 }),
      row({
        ...order,
        訂單編號: '2611220GHIJKL',
        收件者姓名: '周先生',
        [phoneHeader]: 933444555, // a number cell lost its leading 0
        郵遞區號: 300,
        收件地址: '新竹市東區',
        寄送方式: '7-ELEVEN',
        付款方式: '信用卡',
        買家總支付金額: 290,
        主商品貨號: w.plain.number,
        商品選項貨號: '-',
        數量: 1,
      }),
    ]);
    const seen = (
      await ctx.api.outboundRoutes.inspectImportFile({ body: { file_base64: file.toString('base64') }, token: w.token })
    ).json();
    expect(seen.suggested).toMatchObject({
      platform_order_number: ['訂單編號'],
      recipient_phone: [phoneHeader.normalize('NFKC').replace(/\s+/g, ' ')], // as headers are compared
      cod: ['付款方式'],
      total_amount: ['買家總支付金額'],
      product: ['商品選項貨號', '主商品貨號'],
    });
    // 寄送方式 is the shipping method's name, not a carrier code: it is not suggested as the logistics provider.
    expect(seen.suggested.logistics_provider).toBeUndefined();
    const [platform] = await ctx.deps.database.db
      .insert(ecommerce_platforms)
      .values({ customer_id: w.customerId, code: 'SHOPEE-TW', name: '蝦皮台灣' })
      .returning();
    const form = await ctx.api.outboundRoutes.createImportForm({
      body: { name: '蝦皮', platform_id: platform!.id, mapping: seen.suggested },
      token: w.token,
    });
    expect(form.statusCode, form.body).toBe(201);
    const job = await importFile(ctx, w.token, file, { platform_id: platform!.id });
    expect(job.error).toBeNull();
    expect(job.result).toMatchObject({ rows: 3, orders: 2, created: 2 });
    const [cod] = await list('2611220ABCDEF');
    expect(cod).toMatchObject({
      recipient_phone: '0912345678',
      cod: true,
      cod_amount: '880.00',
      unit_count: 3,
      logistics_provider_code: null,
      shipping_remark: '請下午送達',
    });
    expect((await list('2611220GHIJKL'))[0]).toMatchObject({ recipient_phone: '0933444555', cod: false });
  });

  it('reads CSV in UTF-8 and exports on import when asked, reporting shortages by row', async () => {
    const csv = [
      header.join(','),
      `CSV-1,甲,0912345678,100,台北,,,,${w.phone.number},1`,
      `CSV-2,乙,0912345678,100,"台北市, 中正區",,,,${w.plain.number},999`,
    ].join('\r\n');
    const job = await importFile(ctx, w.token, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv)]), {
      export_after_import: true,
    });
    expect(job.result).toMatchObject({
      created: 2,
      exported: 1,
      shortages: [{ row: 3, order: 'CSV-2', code: 'INVENTORY_SHORTAGE', params: { product_number: w.plain.number } }],
    });
    expect((await list('CSV-1'))[0]!.status).toBe('exported');
    expect((await list('CSV-2'))[0]).toMatchObject({
      status: 'pending_export',
      recipient_address: '台北市, 中正區',
      abnormal: { code: 'INVENTORY_SHORTAGE' },
    });
  });
});
