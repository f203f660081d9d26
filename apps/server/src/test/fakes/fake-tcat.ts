import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/**
 * A local T-cat Egs host on 127.0.0.1 (`/api/Egs/{Service}`, JSON in and out, credentials in the body):
 * - every service refuses a wrong CustomerId/CustomerToken with `IsOK: "N"` (HTTP 200) as T-cat does;
 * - `ParsingAddress` answers a post number for an address in a Taiwan city/county, `IsOK: "N"` for one it cannot place;
 * - `PrintOBT` checks what T-cat checks (PrintType 01 with an empty OBTNumber, Thermosphere/Spec codes and 150 cm only
 *   when ambient, a recipient name, phone and address, a sender post number of 6 characters, dates yyyyMMdd with the
 *   delivery after the shipment, COD 1–20000, at most 100 orders) and answers 12-digit OBT numbers with a FileNo;
 * - `DownloadOBT` answers the label PDF (HTTP 200, application/pdf) or HTTP 400 with a JSON refusal for an unknown or
 *   expired FileNo (valid 24 hours: `expireFiles()` ages them).
 * `failNext(n, service?)` answers 503 to the next n calls (of one service when named; a negative n takes back what was
 * not used).
 */
export interface TFakeTcat {
  url: string;
  customerId: string;
  customerToken: string;
  /** Every consignment made (the request's order plus its OBTNumber and FileNo). */
  created: Array<Record<string, unknown> & { OBTNumber: string; FileNo: string }>;
  calls: string[];
  failNext(n: number, service?: '*' | 'ParsingAddress' | 'PrintOBT' | 'DownloadOBT'): void;
  expireFiles(): void;
  close(): Promise<void>;
}

const CITIES =
  /^(台北市|臺北市|新北市|桃園市|台中市|臺中市|台南市|臺南市|高雄市|基隆市|新竹市|新竹縣|苗栗縣|彰化縣|南投縣|雲林縣|嘉義市|嘉義縣|屏東縣|宜蘭縣|花蓮縣|台東縣|臺東縣|澎湖縣|金門縣|連江縣)/;

export async function makeLabelPdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([283, 425]); // 100 × 150 mm
  lines.forEach((l, i) => {
    page.drawText(l, { x: 20, y: 390 - i * 24, size: i === 0 ? 18 : 12, font });
  });
  return Buffer.from(await doc.save());
}

export async function startFakeTcat(
  opts: { customerId?: string; customerToken?: string; port?: number } = {},
): Promise<TFakeTcat> {
  const customerId = opts.customerId ?? '8048503301';
  const customerToken = opts.customerToken ?? 'a8fz6xj9';
  const created: TFakeTcat['created'] = [];
  const calls: string[] = [];
  const files = new Map<string, { numbers: string[]; at: number }>();
  const failures = new Map<string, number>();
  let next = 905_074_230_000;
  let tran = 1;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const service = (req.url ?? '').replace(/^\/api\/Egs\//, '').replace(/\?.*$/, '');
      calls.push(service);
      const json = (status: number, v: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(v));
      };
      const srvTranId = `TN${String(tran++).padStart(12, '0')}`;
      const no = (message: string, status = 200) =>
        json(status, { SrvTranId: srvTranId, IsOK: 'N', Message: message, Data: null });
      const yes = (data: unknown) => json(200, { SrvTranId: srvTranId, IsOK: 'Y', Message: '', Data: data });
      for (const key of ['*', service]) {
        const left = failures.get(key) ?? 0;
        if (left > 0) {
          failures.set(key, left - 1);
          res.writeHead(503, { 'content-type': 'text/html' });
          return res.end('<html><body>503 Service Unavailable</body></html>');
        }
      }
      if (req.method !== 'POST' || !req.url?.startsWith('/api/Egs/')) {
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('Not Found');
      }
      if (!/application\/json/i.test(req.headers['content-type'] ?? ''))
        return no('Content-Type 必須為 application/json', 415);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        return no('資料格式錯誤', 400);
      }
      if (body.CustomerId !== customerId || body.CustomerToken !== customerToken) return no('契客代號或授權碼錯誤');

      if (service === 'ParsingAddress') {
        const list = Array.isArray(body.Addresses) ? (body.Addresses as Array<{ Search?: string }>) : [];
        if (list.length === 0 || list.length > 100) return no('地址筆數錯誤');
        const out = list.map((a) => {
          const s = String(a.Search ?? '');
          const m = CITIES.exec(s);
          const n = m ? [...s].reduce((x, c) => (x * 31 + c.charCodeAt(0)) % 100000, 7) : -1;
          return {
            Search: s,
            PostNumber: m
              ? `71-${String(n).padStart(5, '0').slice(0, 3)}-${String(n).slice(-2).padStart(2, '0')}-A`
              : '',
          };
        });
        if (list.length === 1 && !out[0]!.PostNumber) return no('查無郵號');
        return yes({ Addresses: out });
      }

      if (service === 'PrintOBT') {
        if (body.PrintType !== '01') return no('列印類別錯誤');
        if (!['01', '02', '03'].includes(String(body.PrintOBTType))) return no('列印託運單類別錯誤');
        const orders = Array.isArray(body.Orders) ? (body.Orders as Array<Record<string, unknown>>) : [];
        if (orders.length === 0 || orders.length > 100) return no('訂單筆數錯誤(1~100筆)');
        const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
        for (const o of orders) {
          const id = String(o.OrderId ?? '');
          const err = (m: string) => `訂單編號 ${id}：${m}`;
          if (o.OBTNumber !== '') return no(err('系統分配託運單號時 OBTNumber 須為空白'));
          if (!id) return no(err('OrderId 不可空白'));
          if (!['0001', '0002', '0003'].includes(String(o.Thermosphere))) return no(err('溫層錯誤'));
          if (!['0001', '0002', '0003', '0004'].includes(String(o.Spec))) return no(err('規格錯誤'));
          if (o.Spec === '0004' && o.Thermosphere !== '0001') return no(err('冷藏/冷凍不提供 150cm 規格'));
          if (!String(o.RecipientName ?? '').trim()) return no(err('收件人姓名不可空白'));
          if (!String(o.RecipientTel ?? '').trim() && !/^09\d{8}$/.test(String(o.RecipientMobile ?? '')))
            return no(err('收件人電話或手機至少填一項'));
          if (!String(o.RecipientAddress ?? '').trim()) return no(err('收件人地址不可空白'));
          if (!String(o.SenderName ?? '').trim()) return no(err('寄件人姓名不可空白'));
          if (!String(o.SenderAddress ?? '').trim()) return no(err('寄件人地址不可空白'));
          if (!/^[0-9A-Z]{6}$/.test(String(o.SenderZipCode ?? ''))) return no(err('寄件人郵號錯誤'));
          const ship = String(o.ShipmentDate ?? '');
          const deliver = String(o.DeliveryDate ?? '');
          if (!/^\d{8}$/.test(ship) || ship < today) return no(err('出貨日期錯誤'));
          if (!/^\d{8}$/.test(deliver) || deliver <= ship) return no(err('希望配達日期錯誤'));
          if (!['01', '02', '04'].includes(String(o.DeliveryTime))) return no(err('希望配達時段錯誤'));
          if (o.IsCollection === 'Y') {
            const amt = Number(o.CollectionAmount);
            if (!Number.isInteger(amt) || amt < 1 || amt > 20000) return no(err('代收金額錯誤'));
          } else if (o.IsCollection !== 'N') return no(err('是否代收貨款錯誤'));
          if (!String(o.ProductName ?? '').trim() || [...String(o.ProductName)].length > 20) return no(err('品名錯誤'));
          // Spec v2.0.5: ReceiptLocation 01 to the door / 02 at a T-cat station (then its number); the Y/N flags;
          // ProductTypeId 0001–0015.
          if (!['01', '02'].includes(String(o.ReceiptLocation ?? '01'))) return no(err('收件地點錯誤'));
          if (o.ReceiptLocation === '02' && !String(o.ReceiptStationNo ?? '').trim())
            return no(err('到所取件請填營業所代號'));
          for (const flag of ['IsFreight', 'IsSwipe', 'IsMobilePay', 'IsDeclare'])
            if (o[flag] !== undefined && o[flag] !== 'Y' && o[flag] !== 'N') return no(err(`${flag} 錯誤`));
          const type = Number(o.ProductTypeId);
          if (!/^\d{4}$/.test(String(o.ProductTypeId ?? '')) || type < 1 || type > 15) return no(err('商品類別錯誤'));
        }
        const fileNo = Buffer.from(`${srvTranId}-${Date.now()}`).toString('base64');
        const answered = orders.map((o) => {
          const OBTNumber = String(next++);
          created.push({ ...o, OBTNumber, FileNo: fileNo });
          return { OBTNumber, OrderId: String(o.OrderId) };
        });
        files.set(fileNo, { numbers: answered.map((a) => a.OBTNumber), at: Date.now() });
        const stamp = new Date(Date.now() + 8 * 3600_000).toISOString().replace(/\D/g, '').slice(0, 14);
        return yes({ PrintDateTime: stamp, Orders: answered, FileNo: fileNo });
      }

      if (service === 'DownloadOBT') {
        const file = files.get(String(body.FileNo ?? ''));
        if (!file || Date.now() - file.at > 24 * 3600_000) return no('檔案編號不存在或已逾期', 400);
        const wanted = Array.isArray(body.Orders)
          ? (body.Orders as Array<{ OBTNumber?: string }>).map((o) => String(o.OBTNumber ?? ''))
          : file.numbers;
        if (wanted.some((n) => !file.numbers.includes(n))) return no('託運單號不屬於此檔案編號', 400);
        const doc = await PDFDocument.create();
        for (const n of wanted) {
          const one = await PDFDocument.load(
            await makeLabelPdf([`T-cat ${n}`, `FileNo ${String(body.FileNo).slice(0, 12)}`]),
          );
          const [p] = await doc.copyPages(one, [0]);
          doc.addPage(p!);
        }
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return res.end(Buffer.from(await doc.save()));
      }
      return no(`服務 ${service} 不存在`, 404);
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/Egs`,
    customerId,
    customerToken,
    created,
    calls,
    failNext(n, service = '*') {
      failures.set(service, Math.max(0, (failures.get(service) ?? 0) + n));
    },
    expireFiles() {
      for (const f of files.values()) f.at -= 25 * 3600_000;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
