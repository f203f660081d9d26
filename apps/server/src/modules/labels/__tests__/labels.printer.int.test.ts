import { createServer, type Server, type Socket } from 'node:net';
import { labelDocumentZpl, type TLabelDocument } from '@wms/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warehouses } from '../../../db/schema';
import { createTestContext, type TTestContext } from '../../../test/harness';
import { PRINTER_TIMEOUT_MS, sendRaw } from '../labels.printer';

/**
 * "Send to printer" (issue #37): the warehouse's label printer gets the labels' ZPL raw over TCP (port 9100 style),
 * byte for byte. The printer here is a local TCP server that keeps what each connection sent, as a Zebra printer's
 * raw port takes a job: no handshake, nothing sent back, the job ends when the sender closes.
 */

let ctx: TTestContext;
let a: { token: string; customerId: string };
let b: { token: string; customerId: string };

/** A raw-port printer: every connection's bytes, in order, once the sender closed it. */
function fakePrinter(): Promise<{ server: Server; port: number; jobs: Buffer[]; next: () => Promise<Buffer> }> {
  const jobs: Buffer[] = [];
  const waiting: Array<(b: Buffer) => void> = [];
  const server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('end', () => {
      const job = Buffer.concat(chunks);
      jobs.push(job);
      waiting.shift()?.(job);
      socket.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        server,
        port,
        jobs,
        next: () =>
          new Promise<Buffer>((r) => (jobs.length > waiting.length ? r(jobs[waiting.length]!) : waiting.push(r))),
      });
    });
  });
}

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  ctx = await createTestContext({}, { jobs: false });
  a = await ctx.newCustomer();
  b = await ctx.newCustomer();
});
afterAll(async () => {
  await ctx?.close();
});

async function world(token: string, tag: string, printer?: { host: string; port: number }) {
  const stamp = `${tag}${Date.now().toString(36).toUpperCase()}`;
  const w = await ctx.api.warehouseRoutes.createWarehouse({
    body: {
      code: `WP-${stamp}`,
      name: `Printer ${stamp}`,
      ...(printer ? { label_printer_host: printer.host, label_printer_port: printer.port } : {}),
    },
    token,
  });
  expect(w.statusCode, w.body).toBe(201);
  const p = await ctx.api.catalogRoutes.createProduct({
    body: { number: `PP-${stamp}`, name: `印表茶 ${stamp}` },
    token,
  });
  expect(p.statusCode, p.body).toBe(201);
  const sheets = (await ctx.api.labelRoutes.listLabelSheets({ token })).json() as {
    results: Array<{ id: string; code: string }>;
  };
  const roll = sheets.results.find((s) => s.code === 'thermal-50x30')!;
  return {
    warehouse: w.json() as {
      id: string;
      code: string;
      label_printer_host: string | null;
      label_printer_port: number | null;
    },
    request: {
      kind: 'product' as const,
      sheet_id: roll.id,
      items: [{ id: (p.json() as { id: string }).id, copies: 2 }],
    },
  };
}

describe('send labels to the warehouse label printer (raw TCP)', () => {
  it('the printer receives exactly the ZPL document of the labels, nothing around it', async () => {
    const printer = await fakePrinter();
    try {
      const { warehouse, request } = await world(a.token, 'OK', { host: '127.0.0.1', port: printer.port });
      expect(warehouse).toMatchObject({ label_printer_host: '127.0.0.1', label_printer_port: printer.port });
      const job = printer.next();
      const res = await ctx.api.labelRoutes.sendLabelsToPrinter({
        body: {
          ...request,
          warehouse_id: warehouse.id,
        },
        token: a.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const doc = (await ctx.api.labelRoutes.renderLabels({ body: request, token: a.token })).json() as TLabelDocument;
      const zpl = labelDocumentZpl(doc);
      const received = await job;
      expect(received.toString('utf8')).toBe(zpl);
      expect(received.subarray(0, 3).toString()).toBe('^XA');
      expect(zpl.match(/\^XA/g)).toHaveLength(2);
      expect(res.json()).toEqual({ printer: `127.0.0.1:${printer.port}`, labels: 2, bytes: received.byteLength });
      expect(printer.jobs).toHaveLength(1);
    } finally {
      printer.server.close();
    }
  });

  it('a printer that does not answer (closed port) is a translated error naming it', async () => {
    const port = await closedPort();
    const { warehouse, request } = await world(a.token, 'NO', { host: '127.0.0.1', port });
    const body = { ...request, warehouse_id: warehouse.id };
    const en = await ctx.api.labelRoutes.sendLabelsToPrinter({ body, token: a.token, lang: 'en' });
    expect(en.statusCode).toBe(502);
    expect(en.error()).toMatchObject({
      code: 'LABEL_PRINTER_UNREACHABLE',
      message: `The label printer 127.0.0.1:${port} cannot be reached; check that it is on and connected to the network`,
    });
    const zh = await ctx.api.labelRoutes.sendLabelsToPrinter({ body, token: a.token, lang: 'zh-TW' });
    expect(zh.error().message).toBe(`無法連線到標籤機 127.0.0.1:${port}，請確認標籤機已開機並連上網路`);
  });

  it('a warehouse without a printer says so; the printer is set (and cleared) on the warehouse', async () => {
    const { warehouse, request } = await world(a.token, 'NS');
    expect(warehouse).toMatchObject({ label_printer_host: null, label_printer_port: null });
    const res = await ctx.api.labelRoutes.sendLabelsToPrinter({
      body: { ...request, warehouse_id: warehouse.id },
      token: a.token,
      lang: 'en',
    });
    expect(res.statusCode).toBe(409);
    expect(res.error()).toMatchObject({ code: 'LABEL_PRINTER_NOT_SET', params: { warehouse: warehouse.code } });
    const bad = await ctx.api.warehouseRoutes.updateWarehouse({
      params: { id: warehouse.id },
      body: { label_printer_host: 'http://x/' },
      token: a.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'label_printer_host' } });
    const set = await ctx.api.warehouseRoutes.updateWarehouse({
      params: { id: warehouse.id },
      body: {
        label_printer_host: 'zebra-1.local',
        label_printer_port: 9100,
      },
      token: a.token,
    });
    expect(set.json()).toMatchObject({ label_printer_host: 'zebra-1.local', label_printer_port: 9100 });
    const cleared = await ctx.api.warehouseRoutes.updateWarehouse({
      params: { id: warehouse.id },
      body: {
        label_printer_host: null,
        label_printer_port: null,
      },
      token: a.token,
    });
    expect(cleared.json()).toMatchObject({ label_printer_host: null, label_printer_port: null });
  });

  it("another seller cannot print through a warehouse's printer", async () => {
    const printer = await fakePrinter();
    try {
      const { warehouse } = await world(a.token, 'TA', { host: '127.0.0.1', port: printer.port });
      const { request } = await world(b.token, 'TB');
      const res = await ctx.api.labelRoutes.sendLabelsToPrinter({
        body: {
          ...request,
          warehouse_id: warehouse.id,
        },
        token: b.token,
      });
      expect(res.statusCode).toBe(400);
      expect(res.error()).toMatchObject({ code: 'INVALID_FIELD', params: { field: 'warehouse_id' } });
      await new Promise((r) => setTimeout(r, 200));
      expect(printer.jobs).toHaveLength(0);
    } finally {
      printer.server.close();
    }
  });
});

describe('a printer that takes the connection but never reads', () => {
  it('sending gives up after the real 5 s default (not sooner, not much later)', async () => {
    // The printer accepts the TCP connection and never reads a byte: once the kernel's buffers on both sides are full
    // (a job larger than them), nothing more goes out, and the send must end by itself.
    const sockets: Socket[] = [];
    const stuck = createServer({ pauseOnConnect: true }, (s) => sockets.push(s));
    await new Promise<void>((r) => stuck.listen(0, '127.0.0.1', () => r()));
    const port = (stuck.address() as { port: number }).port;
    try {
      expect(PRINTER_TIMEOUT_MS).toBe(5000);
      const started = Date.now();
      await expect(sendRaw('127.0.0.1', port, Buffer.alloc(64 * 1024 * 1024, 0x41))).rejects.toThrow(
        'timed out after 5000 ms',
      );
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(4990);
      expect(took).toBeLessThan(6500);
      expect(sockets).toHaveLength(1);
    } finally {
      for (const s of sockets) s.destroy();
      stuck.close();
    }
  }, 15_000);
});

describe('where a label printer may be (the warehouse network only)', () => {
  let strict: TTestContext;
  let s: { token: string };
  beforeAll(async () => {
    strict = await createTestContext(
      { LABEL_PRINTER_ALLOW_LOOPBACK: '0', LABEL_PRINTER_ALLOWED_HOSTS: '203.0.113.0/24, print.example.test' },
      { jobs: false },
    );
    s = await strict.newCustomer();
  });
  afterAll(async () => {
    await strict?.close();
  });

  const create = (host: string) =>
    strict.api.warehouseRoutes.createWarehouse({
      body: {
        code: `WH-${Math.random().toString(36).slice(2, 8).toUpperCase()}`,
        name: 'Printer network',
        label_printer_host: host,
        label_printer_port: 9100,
      },
      token: s.token,
      lang: 'en',
    });

  it('takes private, link-local and unique-local addresses and what the operator lists', async () => {
    for (const host of [
      '10.1.2.3',
      '172.20.0.9',
      '192.168.1.50',
      '169.254.7.7',
      'fd12:3456::9',
      'fe80::1',
      '203.0.113.9',
      'print.example.test',
      'zebra-1.local',
    ]) {
      const res = await create(host);
      expect(res.statusCode, `${host}: ${res.body}`).toBe(201);
    }
  });

  it('refuses public and loopback addresses (outside tests) and names that resolve to them, naming the field', async () => {
    for (const host of ['8.8.8.8', '172.32.0.1', '127.0.0.1', '::1', '::ffff:8.8.8.8', '2001:db8::1', 'localhost']) {
      const res = await create(host);
      expect(res.statusCode, host).toBe(400);
      expect(res.error()).toMatchObject({
        code: 'LABEL_PRINTER_HOST_NOT_ALLOWED',
        params: { field: 'label_printer_host', host },
      });
    }
    const zh = await strict.api.warehouseRoutes.createWarehouse({
      body: { code: 'WH-PUB', name: 'Public', label_printer_host: '8.8.8.8', label_printer_port: 9100 },
      token: s.token,
      lang: 'zh-TW',
    });
    expect(zh.error().message).toContain('標籤機主機「8.8.8.8」不允許');
    // Changing the host of a warehouse is checked too.
    const ok = await create('192.168.1.60');
    const changed = await strict.api.warehouseRoutes.updateWarehouse({
      params: { id: (ok.json() as { id: string }).id },
      body: { label_printer_host: '1.1.1.1' },
      token: s.token,
    });
    expect(changed.statusCode).toBe(400);
    expect(changed.error()).toMatchObject({ code: 'LABEL_PRINTER_HOST_NOT_ALLOWED' });
  });

  it('a host saved before the rule is refused at sending, without connecting', async () => {
    const ok = await create('192.168.1.61');
    const id = (ok.json() as { id: string }).id;
    await strict.deps.database.db
      .update(warehouses)
      .set({ label_printer_host: '127.0.0.1' })
      .where(eq(warehouses.id, id));
    const p = await strict.api.catalogRoutes.createProduct({
      body: { number: 'PP-OLD', name: 'Old host' },
      token: s.token,
    });
    const sheets = (await strict.api.labelRoutes.listLabelSheets({ token: s.token })).json() as {
      results: Array<{ id: string; code: string }>;
    };
    const roll = sheets.results.find((x) => x.code === 'thermal-50x30')!;
    const sent = await strict.api.labelRoutes.sendLabelsToPrinter({
      body: {
        kind: 'product',
        sheet_id: roll.id,
        items: [{ id: (p.json() as { id: string }).id, copies: 1 }],
        warehouse_id: id,
      },
      token: s.token,
      lang: 'en',
    });
    expect(sent.statusCode).toBe(400);
    expect(sent.error()).toMatchObject({ code: 'LABEL_PRINTER_HOST_NOT_ALLOWED', params: { host: '127.0.0.1' } });
  });
});
