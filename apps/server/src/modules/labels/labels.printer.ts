import { Socket } from 'node:net';

/** How long a label printer may take to accept the connection and the bytes (a printer that is off never answers). */
export const PRINTER_TIMEOUT_MS = 5000;

/**
 * Send bytes to a printer's raw port (Zebra and compatible printers: TCP 9100, "raw"/JetDirect): connect, write the
 * bytes as they are — no framing, no header —, close, and resolve once every byte went out (the printer sends nothing
 * back). Rejects on a refused or unreachable address and when the whole exchange takes longer than
 * `timeoutMs`.
 */
export function sendRaw(host: string, port: number, bytes: Uint8Array, timeoutMs = PRINTER_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let settled = false;
    const done = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.once('error', (err) => done(err));
    socket.once('close', (hadError) => {
      if (hadError) done(new Error('connection closed with an error'));
    });
    // Sent once every byte was handed to the connection and our side closed (a printer may keep its side open).
    socket.connect({ host, port }, () => {
      socket.end(bytes, () => done());
    });
  });
}
